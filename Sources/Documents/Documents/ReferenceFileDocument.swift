#if !canImport(SwiftUI)
  import Archives
  public import UniformTypes

  /// A document stored as an object, read from a ``FileWrapper`` and saved from a snapshot:
  /// SwiftUI's `ReferenceFileDocument` for Linux.
  ///
  /// Saving takes a ``snapshot(contentType:)`` on the main actor, then serializes it with
  /// ``fileWrapper(snapshot:configuration:)`` in the background, so the document can be
  /// edited meanwhile. A ``DocumentSession`` hosts one through a
  /// ``ReferenceFileDocumentHost``.
  ///
  /// SwiftUI's protocol refines Combine's `ObservableObject`; Combine is not on Linux, so
  /// Folio's refines `AnyObject` and leaves observation to `@Observable`.
  @preconcurrency
  public protocol ReferenceFileDocument: AnyObject, Sendable {
    /// What a save serializes: a copy of the document's content.
    associatedtype Snapshot
    /// The configuration `init(configuration:)` gets.
    typealias ReadConfiguration = FileDocumentReadConfiguration
    /// The configuration `fileWrapper(snapshot:configuration:)` gets.
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

    /// Copies the document's current content for a save.
    ///
    /// - Parameter contentType: The type the snapshot will be written as.
    /// - Returns: The copy.
    /// - Throws: When the document cannot be saved in that type now.
    func snapshot(contentType: UTType) throws -> Snapshot

    /// Serializes a snapshot to a file wrapper.
    ///
    /// - Parameters:
    ///   - snapshot: What ``snapshot(contentType:)`` returned.
    ///   - configuration: The content type to write and the document's current file
    ///     wrapper (`nil` before its first save), to reuse.
    /// - Returns: The wrapper to write.
    /// - Throws: When the snapshot cannot be written in that type.
    func fileWrapper(snapshot: Snapshot, configuration: WriteConfiguration) throws -> FileWrapper
  }

  extension ReferenceFileDocument {
    /// A document writes the content types it reads, unless it says otherwise.
    public static var writableContentTypes: [UTType] { readableContentTypes }
  }
#endif
