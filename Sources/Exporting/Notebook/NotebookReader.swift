import FolioSystem
public import Foundation
public import Packaging
public import PropertyLists

/// Reads a notebook package into a ``NotebookSnapshot``.
///
/// Built on ``PackageDocumentReader``: the folder's structure is read at once,
/// `metadata.json` and the pages one by one. Warnings (unlisted or repeated
/// pages) go to `onDiagnostic`; progress counts one unit per page.
public struct NotebookReader: DocumentReader {
  /// Receives warnings found while reading.
  public var onDiagnostic: @Sendable (Diagnostic) -> Void

  /// Creates a reader.
  ///
  /// - Parameter onDiagnostic: Receives warnings found while reading.
  public init(onDiagnostic: @escaping @Sendable (Diagnostic) -> Void = { _ in }) {
    self.onDiagnostic = onDiagnostic
  }

  /// Reads the notebook at `source`.
  ///
  /// - Parameters:
  ///   - source: The notebook package folder.
  ///   - progress: One unit per page.
  /// - Returns: The notebook's title and pages; unlisted pages are appended to its page order.
  /// - Throws: ``ExportError`` `invalid-notebook`, `missing-page`, `file-vanished`, `invalid-text`.
  public func read(from source: URL, progress: consuming Subprogress) async throws
    -> NotebookSnapshot
  {
    let reporter = progress.start(totalCount: 1)
    let onDiagnostic = self.onDiagnostic
    let display = source.lastPathComponent
    return try await runBlocking(cancelling: reporter) {
      let notebook = try NotebookPackage(contentsOf: source, displayName: display)
      notebook.diagnostics.forEach(onDiagnostic)
      reporter.setCounts { _, total in total = max(1, notebook.pages.count) }
      reporter.totalFileCount += notebook.pages.count
      var texts: [UUID: String] = [:]
      for page in notebook.pages {
        try reporter.checkCancellation()
        texts[page.identifier] = try page.text()
        reporter.completedByteCount += UInt64(clamping: page.node.byteCount ?? 0)
        reporter.completeFile(page.node.displayPath)
        reporter.complete(count: 1)
      }
      return NotebookSnapshot(
        title: notebook.title, pageOrder: notebook.pages.map(\.identifier), pages: texts)
    }
  }
}
