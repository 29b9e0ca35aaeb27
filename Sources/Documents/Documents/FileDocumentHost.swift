#if !canImport(SwiftUI)
  public import Observation
  import Archives
  public import UniformTypes

  /// A ``FileDocument`` value hosted as a ``Document``, so a ``DocumentSession`` reads,
  /// edits and saves it as SwiftUI's `DocumentGroup` does.
  ///
  /// ```swift
  /// let session = try await DocumentSession(contentsOf: url, documentType: TextFile.self)
  /// session.document.document.text += "More.\n"
  /// try await session.save()
  /// ```
  ///
  /// The value is read with `init(configuration:)` and written with
  /// `fileWrapper(configuration:)` in the background; `existingFile` is the wrapper last
  /// read or written, so a package document can return it updated and only what changed is
  /// rewritten.
  @MainActor
  @Observable
  public final class FileDocumentHost<Content: FileDocument>: Document {
    /// The value before its session opened it (for a session of a file, until it is read).
    private var content: Content?

    /// The document's value; edit it in place.
    public var document: Content {
      get { FileDocumentHosting.opened(content) }
      set { content = newValue }
    }

    /// Hosts a value, for a new document or one read by the program itself.
    ///
    /// - Parameter document: The value.
    public init(_ document: Content) {
      content = document
    }

    /// A host whose value is read when its session opens.
    init() {
      content = nil
    }

    /// The document type's readable content types.
    nonisolated public static var readableContentTypes: [UTType] { Content.readableContentTypes }
    /// The document type's writable content types.
    nonisolated public static var writableContentTypes: [UTType] { Content.writableContentTypes }

    /// A reader that makes the value with `init(configuration:)`.
    ///
    /// - Parameter configuration: The content type of the file.
    /// - Returns: The reader.
    nonisolated public func reader(configuration: sending ReadConfiguration)
      -> sending FileWrapperDocumentReader<Content>
    {
      FileDocumentHosting.reader(configuration) { try Content(configuration: $0) }
    }

    /// Takes the value read.
    ///
    /// - Parameters:
    ///   - snapshot: The value read.
    ///   - previous: Not used.
    public func apply(snapshot: sending Content, previous: sending Content?) async throws {
      content = snapshot
    }

    /// A writer that writes the wrapper `fileWrapper(configuration:)` returns.
    ///
    /// - Parameter configuration: The content type to write.
    /// - Returns: The writer.
    nonisolated public func writer(configuration: sending WriteConfiguration)
      -> sending FileWrapperDocumentWriter<Content>
    {
      FileDocumentHosting.writer(configuration) { value, configuration in
        try value.fileWrapper(configuration: configuration)
      }
    }

    /// The value to save: a copy of it.
    ///
    /// - Parameter contentType: Not used: the writer gets it.
    /// - Returns: The value.
    public func snapshot(contentType: UTType) async throws -> sending Content {
      document
    }
  }
#endif
