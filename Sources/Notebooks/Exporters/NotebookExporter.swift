public import Documents
import FolioSystem
import FoundationEssentials
public import ProgressReporting
public import PropertyLists
public import UniformTypes

/// Exports a notebook package to plain text, Markdown, HTML or JSON.
///
/// The notebook is opened lazily and written page by page (see
/// ``NotebookFormat``). A page listed in `pageOrder` but missing is an error
/// naming it; an unlisted page is a warning and is appended.
public struct NotebookExporter: PackageTreeExporter {
  /// The form written.
  public var format: NotebookFormat

  /// Creates an exporter.
  ///
  /// - Parameter format: The form to write.
  public init(format: NotebookFormat) { self.format = format }

  public var name: String {
    switch format {
    case .plainText: "notebook-to-text"
    case .markdown: "notebook-to-markdown"
    case .html: "notebook-to-html"
    case .json: "notebook-to-json"
    }
  }

  public var sourceType: UTType {
    UTType(resolved: TypeIdentifier(NotebookSnapshot.typeIdentifier))
  }

  public var targetType: UTType { UTType(resolved: TypeIdentifier(format.typeIdentifier)) }

  /// How many bytes of output are gathered before they are written.
  static let writeChunkSize = 64 * 1024

  public func export(_ job: ExportJob, progress: consuming Subprogress) async throws -> [Diagnostic]
  {
    let manager = progress.start(totalCount: 1)
    defer { manager.end() }
    let format = self.format
    return try await runBlocking(cancelling: manager) {
      let notebook = try NotebookPackage(
        contentsOf: job.input.url, displayName: job.input.displayName)
      return try Self.render(notebook, as: format, to: job, manager: manager)
    }
  }

  /// Exports a notebook read from an archive, page by page from memory.
  ///
  /// - Parameters:
  ///   - tree: The notebook package.
  ///   - job: The input (the archive) and the output.
  ///   - progress: One unit per page.
  /// - Returns: Warnings about the notebook or the form.
  /// - Throws: ``ExportError`` naming what failed.
  public func export(tree: FileWrapper, _ job: ExportJob, progress: consuming Subprogress)
    async throws -> [Diagnostic]
  {
    let manager = progress.start(totalCount: 1)
    defer { manager.end() }
    let format = self.format
    let notebook = UncheckedTransfer(
      try NotebookPackage(root: tree, displayName: job.input.displayName))
    return try await runBlocking(cancelling: manager) {
      try Self.render(notebook.value, as: format, to: job, manager: manager)
    }
  }

  private static func render(
    _ notebook: NotebookPackage, as format: NotebookFormat, to job: ExportJob,
    manager: ProgressManager
  ) throws -> [Diagnostic] {
    manager.setCounts { _, total in total = max(1, notebook.pages.count) }
    manager.totalFileCount += notebook.pages.count
    manager.totalByteCount += UInt64(clamping: notebook.pages.reduce(0) { $0 + $1.byteCount })
    var diagnostics = notebook.diagnostics
    try job.writeOutputFile { handle in
      var buffer = Data()
      diagnostics += try format.render(
        notebook,
        write: { text in
          buffer.append(contentsOf: text.utf8)
          if buffer.count >= Self.writeChunkSize {
            try handle.write(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
          }
        },
        onPage: { page, _ in
          try manager.checkCancellation()
          manager.completedByteCount += UInt64(clamping: page.byteCount)
          manager.completeFile(page.displayPath)
          manager.complete(count: 1)
        })
      try handle.write(contentsOf: buffer)
    }
    return diagnostics
  }
}

/// Reads plain text into a notebook package: one page per form-feed- or blank-line-separated block.
///
/// Text written by ``NotebookExporter`` in plain-text form comes back with its
/// title and every page's text (see ``NotebookTextParser``). Text in UTF-16 or
/// Latin-1 is decoded first, by its type and byte-order mark.
public struct TextToNotebookExporter: Exporter {
  /// Creates the exporter.
  public init() {}

  public var name: String { "text-to-notebook" }

  public var sourceType: UTType { .plainText }

  public var targetType: UTType {
    UTType(resolved: TypeIdentifier(NotebookSnapshot.typeIdentifier))
  }

  public func export(_ job: ExportJob, progress: consuming Subprogress) async throws -> [Diagnostic]
  {
    let reporter = progress.start(totalCount: 2)
    defer { reporter.end() }
    let source = TextEncodingExporter.encoding(of: job.input.type, registry: job.registry)
    let snapshot = try await runBlocking(cancelling: reporter) {
      let data: Data
      do {
        data = try Data(contentsOf: job.input.url)
      } catch {
        throw ExportError(.readFailed, "cannot read '\(job.input.displayName)'", cause: error)
      }
      let utf8 = try TextTranscoder(from: source, to: .utf8, file: job.input.displayName).transcode(
        data)
      let title = ExportNaming.baseName(
        of: job.input.fileName, type: job.input.type, registry: job.registry)
      return NotebookTextParser.parse(String(decoding: utf8, as: UTF8.self), fallbackTitle: title)
    }
    reporter.complete(count: 1)
    // Written as the notebook document writes itself.
    let writer = NotebookDocument(snapshot).writer(
      configuration: DocumentWriteConfiguration(contentType: NotebookDocument.notebookType))
    try await writer.write(
      snapshot: snapshot, to: job.output, previous: nil,
      progress: reporter.subprogress(assigningCount: 1))
    return []
  }
}
