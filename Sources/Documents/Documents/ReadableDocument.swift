import Archives
#if !canImport(SwiftUI)
  public import UniformTypes

  /// A document type that can be read from a file: SwiftUI's `ReadableDocument` for Linux.
  ///
  /// A readable document is a reference type, so its host keeps one identity across
  /// updates; use `@Observable` to track its properties. Conform to ``Document`` for a
  /// document that is also written.
  public protocol ReadableDocument: AnyObject {
    /// The type that reads the document from disk.
    associatedtype Reader: DocumentReader
    /// What the host passes to ``reader(configuration:)``.
    typealias ReadConfiguration = DocumentReadConfiguration

    /// The content types the document can open.
    static var readableContentTypes: [UTType] { get }

    /// Creates a reader to load the document.
    ///
    /// The host calls this each time it reads the document (on open, on revert).
    ///
    /// - Parameter configuration: The content type of the file being read.
    /// - Returns: The reader.
    func reader(configuration: sending ReadConfiguration) -> sending Reader

    /// Applies a snapshot the reader produced to the document.
    ///
    /// - Parameters:
    ///   - snapshot: The content read.
    ///   - previous: The snapshot read before, or `nil` on the first read.
    /// - Throws: When the snapshot cannot be applied.
    @MainActor
    func apply(snapshot: sending Reader.Snapshot, previous: sending Reader.Snapshot?) async throws
  }
#endif
