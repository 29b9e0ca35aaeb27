/// The serialisations of a property list that Folio reads and writes.
public enum PropertyListFormat: String, Sendable, CaseIterable {
  /// Apple's XML property list (`<?xml …?><!DOCTYPE plist …><plist>…</plist>`).
  case xml
  /// Apple's binary property list (`bplist00`).
  case binary
  /// The JSON-compatible subset, as `plutil -convert json` writes it.
  case json
}
