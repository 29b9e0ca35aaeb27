import Archives
#if !canImport(SwiftUI)
  public import UniformTypes

  /// A document type that can be written to a file: SwiftUI's `WritableDocument` for Linux.
  ///
  /// Saving has three steps: the host calls ``snapshot(contentType:)`` on the main actor,
  /// asks ``writer(configuration:)`` for a writer, and runs the writer's
  /// ``DocumentWriter/write(snapshot:to:previous:progress:)`` in the background.
  public protocol WritableDocument: AnyObject {
    /// The type that writes the document to disk.
    associatedtype Writer: DocumentWriter
    /// What the host passes to ``writer(configuration:)``.
    typealias WriteConfiguration = DocumentWriteConfiguration

    /// The content types the document can be saved or exported as.
    static var writableContentTypes: [UTType] { get }

    /// Creates a writer to save the document.
    ///
    /// - Parameter configuration: The content type of the file being written.
    /// - Returns: The writer.
    func writer(configuration: sending WriteConfiguration) -> sending Writer

    /// Captures the document's current state for saving; keep it quick, and leave the
    /// serialization to the writer.
    ///
    /// - Parameter contentType: The format requested, one of ``writableContentTypes``.
    /// - Returns: What to save.
    /// - Throws: When the document cannot be saved in that format now.
    @MainActor
    func snapshot(contentType: UTType) async throws -> sending Writer.Snapshot
  }

  extension ReadableDocument where Self: WritableDocument {
    /// A document that reads content types also writes them, unless it says otherwise.
    public static var writableContentTypes: [UTType] { readableContentTypes }
  }
#endif
