#if !canImport(SwiftUI)
  public import FoundationEssentials
  public import Archives
  public import UniformTypes

  extension DocumentSession {
    /// Opens the file at `url` as a ``FileDocument``: makes the session and reads the value.
    ///
    /// - Parameters:
    ///   - url: The document's file or package folder.
    ///   - documentType: The document type.
    ///   - contentType: What to read it as; found from its name and kind when `nil`.
    ///   - lockOptions: How long reading and saving wait for another holder's lock.
    /// - Throws: As ``init(contentsOf:contentType:lockOptions:makeDocument:)`` and
    ///   ``open(progress:)``; what `init(configuration:)` throws.
    public convenience init<Content: FileDocument>(
      contentsOf url: URL, documentType: Content.Type, contentType: UTType? = nil,
      lockOptions: LockOptions = .default
    ) async throws where Document == FileDocumentHost<Content> {
      try self.init(contentsOf: url, contentType: contentType, lockOptions: lockOptions) { _ in
        FileDocumentHost<Content>()
      }
      try await open()
    }

    /// Makes a session for a new ``FileDocument`` that has no file yet.
    ///
    /// - Parameters:
    ///   - newDocument: The new document's value.
    ///   - contentType: The type it is saved as by default; the first writable type when `nil`.
    ///   - lockOptions: How long saving waits for another holder's lock.
    public convenience init<Content: FileDocument>(
      newDocument: @autoclosure () -> Content, contentType: UTType? = nil,
      lockOptions: LockOptions = .default
    ) where Document == FileDocumentHost<Content> {
      let type = contentType ?? Content.writableContentTypes.first ?? .data
      self.init(newDocumentOf: type, lockOptions: lockOptions) { _ in
        FileDocumentHost(newDocument())
      }
    }

    /// Opens the file at `url` as a ``ReferenceFileDocument``: makes the session and reads
    /// the object.
    ///
    /// - Parameters:
    ///   - url: The document's file or package folder.
    ///   - documentType: The document type.
    ///   - contentType: What to read it as; found from its name and kind when `nil`.
    ///   - lockOptions: How long reading and saving wait for another holder's lock.
    /// - Throws: As ``init(contentsOf:contentType:lockOptions:makeDocument:)`` and
    ///   ``open(progress:)``; what `init(configuration:)` throws.
    public convenience init<Content: ReferenceFileDocument>(
      contentsOf url: URL, documentType: Content.Type, contentType: UTType? = nil,
      lockOptions: LockOptions = .default
    ) async throws where Document == ReferenceFileDocumentHost<Content> {
      try self.init(contentsOf: url, contentType: contentType, lockOptions: lockOptions) { _ in
        ReferenceFileDocumentHost<Content>()
      }
      try await open()
    }

    /// Makes a session for a new ``ReferenceFileDocument`` that has no file yet.
    ///
    /// - Parameters:
    ///   - newDocument: The new document object.
    ///   - contentType: The type it is saved as by default; the first writable type when `nil`.
    ///   - lockOptions: How long saving waits for another holder's lock.
    public convenience init<Content: ReferenceFileDocument>(
      newDocument: @autoclosure () -> Content, contentType: UTType? = nil,
      lockOptions: LockOptions = .default
    ) where Document == ReferenceFileDocumentHost<Content> {
      let type = contentType ?? Content.writableContentTypes.first ?? .data
      self.init(newDocumentOf: type, lockOptions: lockOptions) { _ in
        ReferenceFileDocumentHost(newDocument())
      }
    }
  }
#endif
