#if !canImport(SwiftUI)
  import Archives
  public import UniformTypes

  /// A document stored as a value, read from and written to a ``FileWrapper``: SwiftUI's
  /// `FileDocument` for Linux.
  ///
  /// ```swift
  /// struct TextFile: FileDocument {
  ///   static let readableContentTypes = [UTType.plainText]
  ///   var text = ""
  ///   init(text: String = "") { self.text = text }
  ///   init(configuration: ReadConfiguration) throws {
  ///     guard let data = configuration.file.regularFileContents else {
  ///       throw CocoaError(.fileReadCorruptFile)
  ///     }
  ///     text = String(decoding: data, as: UTF8.self)
  ///   }
  ///   func fileWrapper(configuration: WriteConfiguration) throws -> FileWrapper {
  ///     FileWrapper(regularFileWithContents: Data(text.utf8))
  ///   }
  /// }
  /// ```
  ///
  /// A ``DocumentSession`` hosts one as SwiftUI's `DocumentGroup` does, through a
  /// ``FileDocumentHost``: `init(configuration:)` and `fileWrapper(configuration:)` run in
  /// the background, with the document's file locked, and a save replaces the file
  /// atomically, linking a package's unchanged files.
  @preconcurrency
  public protocol FileDocument: Sendable {
    /// The configuration `init(configuration:)` gets.
    typealias ReadConfiguration = FileDocumentReadConfiguration
    /// The configuration `fileWrapper(configuration:)` gets.
    typealias WriteConfiguration = FileDocumentWriteConfiguration

    /// The content types the document can open.
    static var readableContentTypes: [UTType] { get }
    /// The content types the document can be saved as; by default ``readableContentTypes``.
    static var writableContentTypes: [UTType] { get }

    /// Reads the document from a file.
    ///
    /// - Parameter configuration: The content type and the file's wrapper.
    /// - Throws: When the file cannot be read as the document.
    init(configuration: ReadConfiguration) throws

    /// Writes the document to a file wrapper.
    ///
    /// - Parameter configuration: The content type to write and the document's current
    ///   file wrapper (`nil` before its first save), to reuse.
    /// - Returns: The wrapper to write: a new one, or the existing one updated.
    /// - Throws: When the document cannot be written in that type.
    func fileWrapper(configuration: WriteConfiguration) throws -> FileWrapper
  }

  extension FileDocument {
    /// A document writes the content types it reads, unless it says otherwise.
    public static var writableContentTypes: [UTType] { readableContentTypes }
  }
#endif
