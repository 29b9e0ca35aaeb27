#if !canImport(SwiftUI)
  /// What ``FileDocumentHost`` and ``ReferenceFileDocumentHost`` do alike: hold the document
  /// a session reads when it opens, and read and write it through file wrappers with the
  /// configurations Apple's file-document protocols take.
  ///
  /// The hosts keep Apple's `nonisolated` and `sending` signatures themselves and call these.
  enum FileDocumentHosting {
    /// The hosted document, which a host made for a file holds once its session opened it.
    ///
    /// - Parameter content: The document, or `nil` before the session read it.
    /// - Returns: The document.
    static func opened<Content>(_ content: Content?) -> Content {
      guard let content else {
        preconditionFailure("\(Content.self) is read when its session opens; open it first")
      }
      return content
    }

    /// A reader that makes the document from the wrapper read, with its content type.
    ///
    /// - Parameters:
    ///   - configuration: The configuration the host's reader was asked for with.
    ///   - makeDocument: The document type's `init(configuration:)`.
    /// - Returns: The reader.
    static func reader<Content: Sendable>(
      _ configuration: sending DocumentReadConfiguration,
      makeDocument: @escaping @Sendable (FileDocumentReadConfiguration) throws -> Content
    ) -> sending FileWrapperDocumentReader<Content> {
      let contentType = configuration.contentType
      return FileWrapperDocumentReader(configuration) { file in
        try makeDocument(FileDocumentReadConfiguration(contentType: contentType, file: file))
      }
    }

    /// A writer that writes the wrapper the document makes, given its content type and the
    /// wrapper last read or written.
    ///
    /// - Parameters:
    ///   - configuration: The configuration the host's writer was asked for with.
    ///   - makeFileWrapper: The document type's `fileWrapper(…configuration:)`.
    /// - Returns: The writer.
    static func writer<Snapshot>(
      _ configuration: sending DocumentWriteConfiguration,
      makeFileWrapper:
        @escaping @Sendable (Snapshot, FileDocumentWriteConfiguration) throws -> FileWrapper
    ) -> sending FileWrapperDocumentWriter<Snapshot> {
      let contentType = configuration.contentType
      return FileWrapperDocumentWriter(configuration) { snapshot, existing in
        try makeFileWrapper(
          snapshot,
          FileDocumentWriteConfiguration(contentType: contentType, existingFile: existing))
      }
    }
  }
#endif
