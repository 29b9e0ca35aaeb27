/// The serialisations of a property list that Folio reads (and, but for OpenStep, writes).
public enum PropertyListFormat: String, Sendable, CaseIterable {
  /// Apple's XML property list (`<?xml …?><!DOCTYPE plist …><plist>…</plist>`).
  case xml
  /// Apple's binary property list (`bplist00`).
  case binary
  /// The JSON-compatible subset, as `plutil -convert json` writes it.
  case json
  /// The old ASCII form (`{ key = value; }`), which Foundation and `plutil` still read but
  /// neither writes; Folio reads it only.
  case openStep = "openstep"

  /// The formats Folio writes (and `plutil -convert` writes): XML, binary and JSON.
  public static let writable: [PropertyListFormat] = [.xml, .binary, .json]
}
