#if !canImport(SwiftUI)
  import FolioSystem
  public import FoundationEssentials
  public import ProgressReporting

  /// A document reader that turns a ``FileWrapper`` into a snapshot: SwiftUI's
  /// `FileWrapperDocumentReader` for Linux.
  ///
  /// The reader reads the document's structure (a package's folders and names, sizes
  /// and dates) and hands the wrapper to a closure; file bytes are read when the
  /// closure asks for them, so a closure that needs one file of a large package reads
  /// one file.
  ///
  /// ```swift
  /// func reader(configuration: sending ReadConfiguration)
  ///   -> sending FileWrapperDocumentReader<String>
  /// {
  ///   FileWrapperDocumentReader(configuration) { fileWrapper in
  ///     guard let data = fileWrapper.regularFileContents else {
  ///       throw CocoaError(.fileReadCorruptFile)
  ///     }
  ///     return String(decoding: data, as: UTF8.self)
  ///   }
  /// }
  /// ```
  ///
  /// A child file may be gone by the time the closure reads it; such a read gives `nil`
  /// (``FileWrapper/regularFileContents``) or throws naming the file
  /// (``FileWrapper/readRegularFileContents()``). The closure gets no progress; write a
  /// ``DocumentReader`` of your own to report it.
  public struct FileWrapperDocumentReader<Snapshot>: DocumentReader {
    /// The configuration type the initializer takes.
    public typealias ReadConfiguration = DocumentReadConfiguration

    private let configuration: DocumentReadConfiguration
    private let makeSnapshot: (FileWrapper) async throws -> sending Snapshot

    /// Creates a reader that converts a ``FileWrapper`` into a snapshot.
    ///
    /// - Parameters:
    ///   - configuration: The configuration passed to ``ReadableDocument/reader(configuration:)``.
    ///   - makeSnapshot: Turns the wrapper into a snapshot: read `regularFileContents` of a
    ///     flat file, walk `fileWrappers` of a package; throw when the data is malformed.
    public init(
      _ configuration: sending ReadConfiguration,
      makeSnapshot: @escaping (FileWrapper) async throws -> sending Snapshot
    ) {
      self.configuration = configuration
      self.makeSnapshot = makeSnapshot
    }

    /// Reads the document's wrapper and makes a snapshot of it.
    ///
    /// - Parameters:
    ///   - source: The document's file or package folder.
    ///   - progress: Two units: the structure read, then the snapshot made.
    /// - Returns: The snapshot the closure made.
    /// - Throws: `CocoaError` as `FileWrapper(url:options:)` throws it (Folio's error
    ///   underneath) when the document cannot be read; what the closure throws.
    @concurrent
    public func read(from source: sending URL, progress: consuming Subprogress) async throws
      -> sending Snapshot
    {
      let manager = progress.start(totalCount: 2)
      defer { manager.end() }
      // The structure is read off the tasks' shared threads: a large folder takes a while.
      let url: URL = source
      let wrapper = try await runBlocking(cancelling: manager) {
        UncheckedTransfer(try FileWrapper(url: url))
      }.value
      manager.complete(count: 1)
      configuration.fileWrapperSlot?.store(wrapper, location: source)
      let snapshot = try await makeSnapshot(wrapper)
      manager.complete(count: 1)
      return snapshot
    }
  }
#endif
