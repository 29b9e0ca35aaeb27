import Archives
#if !canImport(SwiftUI)
  public import UniformTypes

  /// What a host passes to ``ReadableDocument/reader(configuration:)``: SwiftUI's
  /// `DocumentReadConfiguration` for Linux.
  public struct DocumentReadConfiguration: Hashable, Sendable {
    /// The content type of the file being read, one of the document's
    /// ``ReadableDocument/readableContentTypes``.
    public var contentType: UTType
    /// Where a ``FileWrapperDocumentReader`` leaves the wrapper it read, for the
    /// ``FileWrapperDocumentWriter`` of the same document.
    let fileWrapperSlot: FileWrapperSlot?

    /// Creates a configuration, for programs that host documents themselves.
    ///
    /// - Parameter contentType: The content type of the file being read.
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
