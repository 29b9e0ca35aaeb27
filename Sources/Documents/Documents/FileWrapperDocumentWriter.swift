#if !canImport(SwiftUI)
  import FolioSystem
  public import FoundationEssentials
  public import ProgressReporting

  /// A document writer that turns a snapshot into a ``FileWrapper`` and writes it:
  /// SwiftUI's `FileWrapperDocumentWriter` for Linux.
  ///
  /// The closure gets the snapshot and the wrapper last read or written for the
  /// document (`nil` the first time), and returns the wrapper to write. Writing reuses
  /// what did not change: a file whose bytes equal the document's current file at the
  /// same place is linked, not rewritten, so it keeps its inode and modification date,
  /// even when the closure built a fresh wrapper for it.
  ///
  /// ```swift
  /// func writer(configuration: sending WriteConfiguration)
  ///   -> sending FileWrapperDocumentWriter<String>
  /// {
  ///   FileWrapperDocumentWriter(configuration) { snapshot, _ in
  ///     FileWrapper(regularFileWithContents: Data(snapshot.utf8))
  ///   }
  /// }
  /// ```
  public struct FileWrapperDocumentWriter<Snapshot>: DocumentWriter {
    /// The configuration type the initializer takes.
    public typealias WriteConfiguration = DocumentWriteConfiguration

    private let configuration: DocumentWriteConfiguration
    private let makeFileWrapper: (Snapshot, FileWrapper?) async throws -> FileWrapper

    /// Creates a writer that converts a snapshot into a ``FileWrapper``.
    ///
    /// - Parameters:
    ///   - configuration: The configuration passed to ``WritableDocument/writer(configuration:)``.
    ///   - makeFileWrapper: Turns the snapshot into the wrapper to write; its second
    ///     argument is the wrapper last read or written for the document, to reuse.
    public init(
      _ configuration: sending WriteConfiguration,
      makeFileWrapper: @escaping (Snapshot, FileWrapper?) async throws -> FileWrapper
    ) {
      self.configuration = configuration
      self.makeFileWrapper = makeFileWrapper
    }

    /// Makes the snapshot's wrapper and writes it to `destination`, atomically.
    ///
    /// - Parameters:
    ///   - snapshot: The content to write.
    ///   - destination: Where to write it; what is there is replaced in one step.
    ///   - previous: Not used: the closure gets the previous wrapper instead.
    ///   - progress: Two units: the wrapper made, then written.
    /// - Throws: What the closure throws; ``PackagingError`` naming what could not be written.
    @concurrent
    public func write(
      snapshot: sending Snapshot, to destination: sending URL, previous: sending Snapshot?,
      progress: consuming Subprogress
    ) async throws {
      let manager = progress.start(totalCount: 2)
      defer { manager.end() }
      let (previousWrapper, location) =
        configuration.fileWrapperSlot?.contents ?? (nil, nil)
      let wrapper = try await makeFileWrapper(snapshot, previousWrapper)
      manager.complete(count: 1)
      try Task.checkCancellation()
      // Link unchanged files from the document's current files: where the previous
      // wrapper lives, else whatever is at the destination already.
      let target: URL = destination
      let original = location ?? target
      let written = UncheckedTransfer(wrapper)
      try await runBlocking(cancelling: manager) {
        try written.value.write(
          to: target, options: [.atomic, .withNameUpdating],
          originalContentsURL: FileManager.default.fileExists(atPath: original.path)
            ? original : nil)
      }
      configuration.fileWrapperSlot?.store(wrapper, location: target)
      manager.complete(count: 1)
    }
  }

  extension FileWrapperDocumentWriter: FreshDestinationWriter {}
#endif
