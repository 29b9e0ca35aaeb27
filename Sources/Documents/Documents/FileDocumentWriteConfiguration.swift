#if !canImport(SwiftUI)
  import Archives
  public import UniformTypes

  /// What `fileWrapper(configuration:)` of a ``FileDocument`` (or
  /// `fileWrapper(snapshot:configuration:)` of a ``ReferenceFileDocument``) writes with:
  /// SwiftUI's `FileDocumentWriteConfiguration` for Linux.
  public struct FileDocumentWriteConfiguration {
    /// The content type to write, one of the document's writable types.
    public let contentType: UTType
    /// The wrapper last read or written for the document, `nil` before its first save:
    /// update and return it to rewrite only what changed.
    public let existingFile: FileWrapper?

    /// Creates a configuration, for programs that write documents themselves.
    ///
    /// - Parameters:
    ///   - contentType: The content type to write.
    ///   - existingFile: The document's current wrapper, if any.
    public init(contentType: UTType, existingFile: FileWrapper?) {
      self.contentType = contentType
      self.existingFile = existingFile
    }
  }
#endif
