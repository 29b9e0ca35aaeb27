import FolioSystem
public import Foundation
public import Packaging

/// Writes a ``NotebookSnapshot`` as a notebook package.
///
/// Built on ``PackageDocumentWriter``: `metadata.json` (`title`, `pageOrder`) and
/// `pages/<UUID>.txt`. Given the `previous` snapshot written to the same place,
/// only the pages whose text changed (and the metadata, if it changed) are
/// rewritten, and pages no longer present are removed.
public struct NotebookWriter: DocumentWriter {
  /// Whether an existing package may be replaced when there is no `previous`.
  public var overwrite: Bool

  /// Creates a writer.
  ///
  /// - Parameter overwrite: Whether an existing package may be replaced by a full write.
  public init(overwrite: Bool = false) { self.overwrite = overwrite }

  /// Writes `snapshot` to `destination`.
  ///
  /// - Parameters:
  ///   - snapshot: The notebook to store.
  ///   - destination: The package folder.
  ///   - previous: The notebook last written there, to write only what changed.
  ///   - progress: One unit per file written.
  /// - Throws: ``ExportError`` `output-exists` or `write-failed` naming the file.
  public func write(
    snapshot: NotebookSnapshot, to destination: URL, previous: NotebookSnapshot?,
    progress: consuming Subprogress
  ) async throws {
    try await PackageDocumentWriter(overwrite: overwrite, Self.tree(for:))
      .write(snapshot: snapshot, to: destination, previous: previous, progress: progress)
  }

  /// The package tree of a notebook.
  ///
  /// - Parameter snapshot: The notebook.
  /// - Returns: A folder node holding `metadata.json` and `pages/`.
  public static func tree(for snapshot: NotebookSnapshot) -> PackageNode {
    var pages: [String: PackageNode] = [:]
    for identifier in snapshot.pageOrder {
      pages[identifier.uuidString + ".txt"] = .file(Data((snapshot.pages[identifier] ?? "").utf8))
    }
    return .directory([
      "metadata.json": .file(Data(metadataJSON(for: snapshot).utf8)),
      "pages": .directory(pages),
    ])
  }

  /// `metadata.json` as the sample lays it out: two-space indent, `title` then `pageOrder`.
  ///
  /// - Parameter snapshot: The notebook.
  /// - Returns: The JSON text, ending in a newline.
  public static func metadataJSON(for snapshot: NotebookSnapshot) -> String {
    let order = snapshot.pageOrder.map { "    " + JSONText.quote($0.uuidString) }
    let list = order.isEmpty ? "[]" : "[\n" + order.joined(separator: ",\n") + "\n  ]"
    return "{\n  \"title\": \(JSONText.quote(snapshot.title)),\n  \"pageOrder\": \(list)\n}\n"
  }
}
