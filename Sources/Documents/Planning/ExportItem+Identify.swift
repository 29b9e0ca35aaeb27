import Archives
import FolioSystem
public import FoundationEssentials
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
    /// From the name, with the content choosing among the types it allows.
    case nameAndContent = "by its name and its content"
  }

  /// Identifies the item at `url`: by the given type, else by its name, else by its first bytes.
  ///
  /// A regular file whose name says nothing (no extension, an unknown one) or allows
  /// several types is identified by its first bytes too, through the registry's content
  /// rules (see ``TypeRegistry/identification(ofItemAtPath:content:)``).
  ///
  /// - Parameters:
  ///   - url: The file or folder.
  ///   - displayName: Its name in messages.
  ///   - declaredType: The type the caller says it has, if any.
  ///   - registry: The types known: by default the process's (``TypeRegistry/default``).
  /// - Returns: The item and how its type was found.
  /// - Throws: ``ExportError`` `read-failed` when nothing is at `url`.
  public static func identify(
    at url: URL, displayName: String, declaredType: UTType? = nil,
    registry: TypeRegistry = .default
  ) throws -> (ExportItem, TypeEvidence) {
    guard TypeRegistry.itemKind(atPath: url.path) != nil else {
      throw ExportError(
        .readFailed, "'\(displayName)' does not exist", cause: SystemError.current)
    }
    if let declaredType {
      return (ExportItem(url: url, type: declaredType, displayName: displayName), .given)
    }
    // A file that cannot be read is typed by its name; reading it later reports why.
    let result =
      (try? registry.identification(ofItemAtPath: url.path, content: .whenNameIsInconclusive))
      ?? registry.identification(
        forFileNamed: url.lastPathComponent, kind: .regularFile, content: nil)
    let evidence: TypeEvidence =
      switch result.evidence {
      case .content: .content
      case .both: .nameAndContent
      case .name, .kind: .name
      }
    return (ExportItem(url: url, type: result.type, displayName: displayName), evidence)
  }
}
