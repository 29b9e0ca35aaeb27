import Archives
import FolioSystem
import FoundationEssentials

/// Where a document session's writer writes: a path beside the document, moved over it
/// when the writer is done.
///
/// For a package saved in place, the path holds a copy of the package whose files are
/// linked to the document's (nothing is copied), so a writer that writes only what
/// changed finds the rest there; a file the writer replaces gets a new inode and leaves
/// the document's own untouched until the swap.
///
/// For a package or folder type the path is always a folder when the writer starts, on
/// the first save and on Save As too, as SwiftUI creates the destination folder of a
/// package document before calling its writer: a writer that writes its files into
/// `destination` works on a new document as on a saved one.
struct DocumentStaging {
  /// The document's location.
  let target: URL
  /// Where the writer writes.
  let url: URL

  /// Prepares the path beside `target`.
  ///
  /// - Parameters:
  ///   - target: The document's location.
  ///   - replacing: Whether something at `target` may be replaced.
  ///   - linkingCurrentFiles: Whether to start from a linked copy of the package at `target`.
  ///   - creatingFolder: Whether the writer writes a folder (a package or folder type), so
  ///     the path must be one when it starts.
  /// - Throws: ``ExportError`` `output-exists`, `write-failed`; ``PackagingError`` when the
  ///   copy cannot be made.
  init(target: URL, replacing: Bool, linkingCurrentFiles: Bool, creatingFolder: Bool) throws {
    self.target = target
    let parent = target.deletingLastPathComponent()
    guard AtomicOutput.isDirectory(parent) else {
      throw ExportError(.writeFailed, "the folder '\(parent.path)' does not exist")
    }
    try AtomicOutput.check(target, replacing ? .replace : .refuse)
    url = TreeReplacement.temporarySibling(of: target)
    if linkingCurrentFiles && AtomicOutput.isDirectory(target) {
      do {
        try TreeReplacement.linkedCopy(of: target.path, at: url.path)
      } catch {
        removeTree(url)
        throw error
      }
    }
    if creatingFolder && !AtomicOutput.exists(url) {
      do {
        try FileTree.createFolders(atPath: url.path)
      } catch {
        throw ExportError(
          .writeFailed, "cannot create the folder to write '\(target.path)' into", cause: error)
      }
    }
  }

  /// Puts what the writer wrote in place of the document, in one step.
  ///
  /// - Throws: ``ExportError`` `write-failed` when the writer wrote nothing;
  ///   ``PackagingError`` when the swap fails (the document is then as it was).
  func commit() throws {
    guard AtomicOutput.exists(url) else {
      throw ExportError(.writeFailed, "the document's writer wrote nothing for '\(target.path)'")
    }
    try TreeReplacement.move(url.path, over: target.path)
  }

  /// Removes what the writer left.
  func discard() { removeTree(url) }
}
