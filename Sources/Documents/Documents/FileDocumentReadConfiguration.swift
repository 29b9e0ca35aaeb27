#if !canImport(SwiftUI)
  import Archives
  public import UniformTypes

  /// What `init(configuration:)` of a ``FileDocument`` or ``ReferenceFileDocument`` reads:
  /// SwiftUI's `FileDocumentReadConfiguration` for Linux.
  public struct FileDocumentReadConfiguration {
    /// The content type of the file, one of the document's readable types.
    public let contentType: UTType
    /// The file's wrapper: read `regularFileContents` of a flat file, walk
    /// `fileWrappers` of a package.
    public let file: FileWrapper

    /// Creates a configuration, for programs that read documents themselves.
    ///
    /// - Parameters:
    ///   - contentType: The content type of the file.
    ///   - file: The file's wrapper.
    public init(contentType: UTType, file: FileWrapper) {
      self.contentType = contentType
      self.file = file
    }
  }
#endif
