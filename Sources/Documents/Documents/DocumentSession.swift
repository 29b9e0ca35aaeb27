import FolioSystem

#if !canImport(SwiftUI)
  public import FoundationEssentials
  public import Archives
  public import ProgressReporting
  public import UniformTypes
  import Glibc

  /// A writer that writes a whole document to a path where nothing exists yet (and links
  /// unchanged files itself), so the session need not prepare a copy of the document.
  protocol FreshDestinationWriter {}

  /// One open document without a user interface: what SwiftUI's `DocumentGroup` does for
  /// a document, for command-line tools, servers and tests.
  ///
  /// A session makes the document with a closure (as `DocumentGroup`'s `makeDocument`
  /// does), reads it with the document's reader in the background and applies the
  /// snapshot on the main actor; saves by taking a snapshot on the main actor and
  /// running the document's writer in the background; saves as another location or
  /// writable type; and reverts to what is on disk.
  ///
  /// ```swift
  /// let session = try DocumentSession(contentsOf: url) { _ in NotebookDocument() }
  /// try await session.open()
  /// session.document.pages[id] = "Edited"
  /// try await session.save()
  /// ```
  ///
  /// Every access is coordinated with ``PackageLock``: reading holds a shared lock on the
  /// document, saving an exclusive one, so the `folio` command and other sessions never
  /// see a half-written document. Saving is atomic: the writer writes beside the
  /// document (for a package, into a copy whose files are linked to the document's, so
  /// a writer can update only what changed since `previous`), and the result replaces
  /// the document in one step when the writer succeeds; when it fails, the document is
  /// as it was.
  ///
  /// A session runs one open, save or revert at a time; calling another while one runs
  /// throws `document-busy`. A snapshot is handed to one reader or writer at a time, so
  /// snapshot types need not be `Sendable`, but a writer must not keep the snapshots it
  /// is given after it returns (the session passes the last one again as `previous`).
  @MainActor
  public final class DocumentSession<Document: ReadableDocument>
  where Document.Reader.Source == URL {
    /// The document.
    public let document: Document
    /// The configuration the document was made with, kept up to date.
    public let configuration: URLDocumentConfiguration
    /// The content type the document was read as or last saved as.
    public private(set) var contentType: UTType

    /// The wrapper last read or written, for file-wrapper readers and writers.
    var fileWrappers = FileWrapperSlot()
    /// The snapshot last read, for `apply(snapshot:previous:)` on revert.
    private var lastRead: SnapshotHolder?
    /// The snapshot that describes what is on disk now, for a writer's `previous`.
    private var lastWritten: SnapshotHolder?
    private var busy = false

    /// Makes the document for the file at `url`, without reading it yet (see ``open(progress:)``).
    ///
    /// - Parameters:
    ///   - url: The document's file or package folder.
    ///   - contentType: What to read it as; found from its name and kind when `nil`.
    ///   - lockOptions: How long reading and saving wait for another holder's lock, and
    ///     whom they tell when they wait.
    ///   - makeDocument: Makes the (empty) document, given its configuration.
    /// - Throws: ``ExportError`` `unsupported-content-type` when the document's type cannot
    ///   read the file's; what `makeDocument` throws.
    public init(
      contentsOf url: URL, contentType: UTType? = nil,
      lockOptions: LockOptions = .default,
      makeDocument: (URLDocumentConfiguration) throws -> Document
    ) throws {
      let type = try contentType ?? Self.contentType(of: url)
      guard Document.readableContentTypes.contains(where: { type.conforms(to: $0) }) else {
        throw ExportError(
          .unsupportedContentType,
          "'\(url.path)' is \(type.identifier), which \(Document.self) cannot read (it reads \(Document.readableContentTypes.map(\.identifier).joined(separator: ", ")))"
        )
      }
      configuration = URLDocumentConfiguration(
        fileURL: url.standardizedFileURL, lockOptions: lockOptions)
      self.contentType = type
      document = try makeDocument(configuration)
    }

    /// Makes a new document that has no file yet; save it with ``save(to:contentType:replacing:progress:)``.
    ///
    /// - Parameters:
    ///   - contentType: The type it will be saved as by default.
    ///   - lockOptions: How long saving waits for another holder's lock, and whom it tells.
    ///   - makeDocument: Makes the document, given its configuration.
    /// - Throws: What `makeDocument` throws.
    public init(
      newDocumentOf contentType: UTType, lockOptions: LockOptions = .default,
      makeDocument: (URLDocumentConfiguration) throws -> Document
    ) rethrows {
      configuration = URLDocumentConfiguration(fileURL: nil, lockOptions: lockOptions)
      self.contentType = contentType
      document = try makeDocument(configuration)
    }

    /// Where the document is, or `nil` before its first save.
    public var fileURL: URL? { configuration.fileURL }

    /// Reads the document and applies the snapshot (with no previous one).
    ///
    /// - Parameter progress: Two units: the read, then the apply.
    /// - Throws: ``PackagingError`` `lock-timeout` when a writer holds the document too
    ///   long; what the reader or `apply` throws; `document-busy`, `untitled-document`.
    public func open(progress: consuming Subprogress = .untracked()) async throws {
      try await read(passingPrevious: false, progress: progress)
    }

    /// Reads the document again and applies the snapshot, with the one read before as
    /// `previous`, discarding unsaved changes.
    ///
    /// - Parameter progress: Two units: the read, then the apply.
    /// - Throws: As ``open(progress:)``.
    public func revert(progress: consuming Subprogress = .untracked()) async throws {
      try await read(passingPrevious: true, progress: progress)
    }

    private func read(passingPrevious: Bool, progress: consuming Subprogress) async throws {
      guard let url = configuration.fileURL else {
        throw ExportError(.untitledDocument, "the document has no file to read yet")
      }
      try begin()
      defer { end() }
      let manager = progress.start(totalCount: 2)
      defer { manager.end() }
      let reader = document.reader(
        configuration: DocumentReadConfiguration(
          contentType: contentType, fileWrapperSlot: fileWrappers))
      let lock = try await PackageLock.acquire(
        .shared, on: url, options: configuration.lockOptions)
      let snapshot: Document.Reader.Snapshot
      let modified: Date?
      do {
        snapshot = try await reader.read(
          from: url, progress: manager.subprogress(assigningCount: 1))
        modified = Self.modificationDate(of: url)
        lock.release()
      } catch {
        lock.release()
        throw error
      }
      let kept = SnapshotHolder(snapshot)
      let previous = passingPrevious ? lastRead?.value(as: Document.Reader.Snapshot.self) : nil
      try await document.apply(snapshot: snapshot, previous: previous)
      lastRead = kept
      lastWritten = kept  // what is on disk now, for a writer of the same snapshot type
      configuration.lastContentModificationDate = modified
      manager.complete(count: 1)
    }

    func begin() throws {
      guard !busy else {
        throw ExportError(
          .documentBusy,
          "'\(configuration.fileURL?.path ?? "untitled")' is being read or saved already")
      }
      busy = true
    }

    func end() { busy = false }

    func finishedWriting(
      _ snapshot: SnapshotHolder, to url: URL, contentType: UTType, slot: FileWrapperSlot
    ) {
      lastWritten = snapshot
      fileWrappers = slot
      configuration.fileURL = url
      configuration.lastContentModificationDate = Self.modificationDate(of: url)
      self.contentType = contentType
    }

    var previousWritten: SnapshotHolder? { lastWritten }

    /// The type a file or folder has by its name and kind.
    static func contentType(of url: URL) throws -> UTType {
      var info = stat()
      guard stat(url.path, &info) == 0 else {
        throw ExportError(
          .readFailed, "cannot open '\(url.path)'", cause: SystemError.current)
      }
      let isFolder = info.st_mode & S_IFMT == S_IFDIR
      let ext = url.pathExtension
      if isFolder {
        if !ext.isEmpty, let type = UTType(filenameExtension: ext, conformingTo: .package),
          !type.isDynamic
        {
          return type
        }
        return .folder
      }
      return ext.isEmpty ? .data : UTType(filenameExtension: ext) ?? .data
    }

    static func modificationDate(of url: URL) -> Date? {
      var info = stat()
      guard lstat(url.path, &info) == 0 else { return nil }
      return Date(
        timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(
          info.st_mtim.tv_nsec)
          / 1e9)
    }
  }

  /// A snapshot kept by a session between operations.
  ///
  /// Snapshots need not be `Sendable`; the session hands each to one reader, writer or
  /// `apply` at a time and keeps a copy for the next `previous`.
  final class SnapshotHolder: @unchecked Sendable {
    private let stored: Any

    init<T>(_ value: T) { stored = value }

    func value<T>(as type: T.Type) -> T? { stored as? T }
  }
#endif
