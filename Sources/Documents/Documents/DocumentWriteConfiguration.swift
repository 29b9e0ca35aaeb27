import Archives
#if !canImport(SwiftUI)
  public import UniformTypes

  /// What a host passes to ``WritableDocument/writer(configuration:)``: SwiftUI's
  /// `DocumentWriteConfiguration` for Linux.
  public struct DocumentWriteConfiguration: Hashable, Sendable {
    /// The content type of the file being written, one of the document's
    /// ``WritableDocument/writableContentTypes``.
    public var contentType: UTType
    /// Where a ``FileWrapperDocumentWriter`` finds the wrapper last read or written for
    /// the document, and leaves the one it writes.
    let fileWrapperSlot: FileWrapperSlot?

    /// Creates a configuration, for programs that host documents themselves.
    ///
    /// - Parameter contentType: The content type of the file being written.
    public init(contentType: UTType) {
      self.init(contentType: contentType, fileWrapperSlot: nil)
    }

    init(contentType: UTType, fileWrapperSlot: FileWrapperSlot?) {
      self.contentType = contentType
      self.fileWrapperSlot = fileWrapperSlot
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.contentType == rhs.contentType }
    public func hash(into hasher: inout Hasher) { hasher.combine(contentType) }
  }
#endif
