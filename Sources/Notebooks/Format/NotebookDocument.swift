public import Documents
#if !canImport(SwiftUI)
  public import FoundationEssentials
  public import Observation
  import Archives
  public import PropertyLists
  public import UniformTypes

  /// The example notebook as a document: Apple's notebook sample, on Folio.
  ///
  /// Read and written as the sample writes it (a ``FileWrapperDocumentReader`` and a
  /// ``FileWrapperDocumentWriter``): `metadata.json` holds the title and the page order,
  /// `pages/<UUID>.txt` each page's text. Folio adds what the sample leaves out: the
  /// reader checks the package's shape and names what is wrong (a page listed but
  /// missing, a `metadata.json` that is not a notebook's), keeps the members of
  /// `metadata.json` it does not know, and keeps pages `pageOrder` does not list
  /// (after the listed ones); the writer lays `metadata.json` out as the sample does, so
  /// saving an unchanged notebook changes no file, and writes a notebook as plain text,
  /// Markdown, HTML or JSON when asked for one of those types.
  ///
  /// ```swift
  /// try UTType.registerDeclarations(contentsOf: infoPlist)
  /// let session = try DocumentSession(contentsOf: url) { _ in NotebookDocument() }
  /// try await session.open()
  /// session.document.pages[pageID] = "New text\n"
  /// try await session.save()
  /// ```
  @Observable
  public final class NotebookDocument: Document {
    /// The notebook type, `com.example.notebook` (a package, extension `examplenotebook`);
    /// Folio's sample app declares it in `Samples/NotebookApp/Info.plist`.
    public static let notebookType = UTType(
      assumingUndeclared: NotebookSnapshot.typeIdentifier, conformingTo: .package)

    public static var readableContentTypes: [UTType] { [notebookType] }

    /// The notebook itself, then the single-file forms of ``NotebookFormat``.
    public static var writableContentTypes: [UTType] {
      [notebookType] + NotebookFormat.allCases.compactMap { UTType($0.typeIdentifier) }
    }

    /// The title and page order (and other members of `metadata.json`).
    public var metadata: NotebookMetadata
    /// Each page's text, by identifier.
    public var pages: [UUID: String]
    /// Warnings from the last read (unlisted or repeated pages, stray files).
    public private(set) var diagnostics: [Diagnostic] = []

    /// Creates an untitled notebook with one empty page, as the sample does.
    public init() {
      let initialPageID = UUID()
      metadata = NotebookMetadata(title: "Untitled", pageOrder: [initialPageID])
      pages = [initialPageID: ""]
    }

    /// Creates a notebook holding a snapshot's content.
    ///
    /// - Parameter snapshot: The content.
    public init(_ snapshot: NotebookSnapshot) {
      metadata = snapshot.metadata
      pages = snapshot.pages
    }

    /// Reads a notebook package: its metadata, then every page.
    ///
    /// - Parameter configuration: The content type being read (a notebook).
    /// - Returns: The reader.
    public func reader(configuration: sending ReadConfiguration)
      -> sending FileWrapperDocumentReader<NotebookSnapshot>
    {
      FileWrapperDocumentReader(configuration) { directory in
        let notebook = try NotebookPackage(
          root: directory, displayName: directory.filename ?? "notebook")
        return try notebook.snapshot()
      }
    }

    @MainActor
    public func apply(snapshot: sending NotebookSnapshot, previous: sending NotebookSnapshot?)
      async throws
    {
      metadata = snapshot.metadata
      pages = snapshot.pages
      diagnostics = snapshot.diagnostics
    }

    /// Writes the notebook as a package, or as one of ``NotebookFormat``'s files.
    ///
    /// - Parameter configuration: The content type to write.
    /// - Returns: The writer.
    public func writer(configuration: sending WriteConfiguration)
      -> sending FileWrapperDocumentWriter<NotebookSnapshot>
    {
      let format = NotebookDocument.format(for: configuration.contentType)
      return FileWrapperDocumentWriter(configuration) { snapshot, _ in
        if let format {
          return FileWrapper(regularFileWithContents: Data(format.render(snapshot).utf8))
        }
        return NotebookDocument.fileWrapper(for: snapshot)
      }
    }

    /// The single-file form a content type asks for, or `nil` for the package.
    static func format(for contentType: UTType) -> NotebookFormat? {
      guard !contentType.conforms(to: .package) else { return nil }
      // The most specific form the type conforms to: Markdown is also plain text.
      let candidates = NotebookFormat.allCases.compactMap { format in
        UTType(format.typeIdentifier).flatMap { contentType.conforms(to: $0) ? (format, $0) : nil }
      }
      return candidates.first { candidate in
        candidates.allSatisfy { candidate.1.conforms(to: $0.1) }
      }?.0
    }

    @MainActor
    public func snapshot(contentType: UTType) async throws -> sending NotebookSnapshot {
      NotebookSnapshot(metadata: metadata, pages: pages)
    }

    /// The package of a notebook: `metadata.json` and `pages/<UUID>.txt`.
    ///
    /// - Parameter snapshot: The notebook.
    /// - Returns: A directory wrapper.
    public static func fileWrapper(for snapshot: NotebookSnapshot) -> FileWrapper {
      var pageNamesToFileWrappers: [String: FileWrapper] = [:]
      for (pageID, content) in snapshot.pages {
        pageNamesToFileWrappers["\(pageID.uuidString).txt"] =
          FileWrapper(regularFileWithContents: Data(content.utf8))
      }
      return FileWrapper(directoryWithFileWrappers: [
        "metadata.json": FileWrapper(
          regularFileWithContents: Data(snapshot.metadata.jsonText.utf8)),
        "pages": FileWrapper(directoryWithFileWrappers: pageNamesToFileWrappers),
      ])
    }
  }
#endif
