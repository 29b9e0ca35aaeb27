import FolioSystem
public import Foundation
public import UniformTypes

extension ExportItem {
  /// How an item's type was found, for `--explain`.
  public enum TypeEvidence: String, Sendable {
    /// Given by the caller (`--from`).
    case given = "as given"
    /// From the name's extension (or a folder's package extension).
    case name = "by its name"
    /// From the first bytes of the content.
    case content = "by its content"
  }

  /// Identifies the item at `url`: by the given type, else by its name, else by its first bytes.
  ///
  /// A regular file whose name gives only a generic or dynamic type (no
  /// extension, an unknown one) is sniffed with ``ContentSniffer``.
  ///
  /// - Parameters:
  ///   - url: The file or folder.
  ///   - displayName: Its name in messages.
  ///   - declaredType: The type the caller says it has, if any.
  ///   - registry: The types known.
  /// - Returns: The item and how its type was found.
  /// - Throws: ``ExportError`` `read-failed` when nothing is at `url`.
  public static func identify(
    at url: URL, displayName: String, declaredType: TypeIdentifier? = nil, registry: TypeRegistry
  ) throws -> (ExportItem, TypeEvidence) {
    guard let kind = TypeRegistry.itemKind(atPath: url.path) else {
      throw ExportError(
        .readFailed, "'\(displayName)' does not exist", cause: SystemError.current)
    }
    if let declaredType {
      return (ExportItem(url: url, type: declaredType, displayName: displayName), .given)
    }
    let byName = registry.identify(path: url.path)
    if kind == .regularFile && (byName == .data || byName.isDynamic),
      let handle = try? FileHandle(forReadingFrom: url)
    {
      defer { try? handle.close() }
      if let prefix = try? handle.read(upToCount: ContentSniffer.prefixLength),
        let sniffed = ContentSniffer.type(of: prefix)
      {
        return (ExportItem(url: url, type: sniffed, displayName: displayName), .content)
      }
    }
    return (ExportItem(url: url, type: byName, displayName: displayName), .name)
  }
}
