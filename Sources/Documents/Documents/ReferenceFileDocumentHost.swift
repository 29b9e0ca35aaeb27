#if !canImport(SwiftUI)
  public import Observation
  import Archives
  public import UniformTypes

  /// A ``ReferenceFileDocument`` object hosted as a ``Document``, so a ``DocumentSession``
  /// reads and saves it as SwiftUI's `DocumentGroup` does.
  ///
  /// Opening and reverting make a new object with `init(configuration:)` in the background;
  /// saving takes `snapshot(contentType:)` on the main actor and serializes it with
  /// `fileWrapper(snapshot:configuration:)` in the background.
  @MainActor
  @Observable
  public final class ReferenceFileDocumentHost<Content: ReferenceFileDocument>: Document {
    /// The object before its session opened it (for a session of a file, until it is read).
    private var content: Content?

    /// The document object; it is replaced when the session reverts.
    public var document: Content { FileDocumentHosting.opened(content) }

    /// Hosts an object, for a new document or one read by the program itself.
    ///
    /// - Parameter document: The object.
    public init(_ document: Content) {
      content = document
    }

    /// A host whose object is read when its session opens.
    init() {
      content = nil
    }

    /// The document type's readable content types.
    nonisolated public static var readableContentTypes: [UTType] { Content.readableContentTypes }
    /// The document type's writable content types.
    nonisolated public static var writableContentTypes: [UTType] { Content.writableContentTypes }

    /// A reader that makes the object with `init(configuration:)`.
    ///
    /// - Parameter configuration: The content type of the file.
    /// - Returns: The reader.
    nonisolated public func reader(configuration: sending ReadConfiguration)
      -> sending FileWrapperDocumentReader<Content>
    {
      FileDocumentHosting.reader(configuration) { try Content(configuration: $0) }
    }

    /// Takes the object read.
    ///
    /// - Parameters:
    ///   - snapshot: The object read.
    ///   - previous: Not used.
    public func apply(snapshot: sending Content, previous: sending Content?) async throws {
      content = snapshot
    }

    /// A writer that writes the wrapper `fileWrapper(snapshot:configuration:)` returns.
    ///
    /// - Parameter configuration: The content type to write.
    /// - Returns: The writer.
    nonisolated public func writer(configuration: sending WriteConfiguration)
      -> sending FileWrapperDocumentWriter<SnapshotOf<Content>>
    {
      FileDocumentHosting.writer(configuration) { snapshot, configuration in
        try snapshot.document.fileWrapper(snapshot: snapshot.value, configuration: configuration)
      }
    }

    /// The document's snapshot, taken on the main actor.
    ///
    /// - Parameter contentType: The type the snapshot will be written as.
    /// - Returns: The snapshot, with the object that serializes it.
    /// - Throws: What `snapshot(contentType:)` throws.
    public func snapshot(contentType: UTType) async throws -> sending SnapshotOf<Content> {
      let object = document
      return SnapshotOf(document: object, value: try object.snapshot(contentType: contentType))
    }
  }

  /// A ``ReferenceFileDocument``'s snapshot and the object that serializes it, handed from
  /// the main actor to the background writer.
  public struct SnapshotOf<Content: ReferenceFileDocument> {
    /// The object whose `fileWrapper(snapshot:configuration:)` writes the snapshot.
    public let document: Content
    /// The snapshot.
    public let value: Content.Snapshot
  }
#endif
