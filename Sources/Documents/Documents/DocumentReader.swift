#if !canImport(SwiftUI)
  public import FoundationEssentials
  public import ProgressReporting

  /// A type that reads a document's content from a file: SwiftUI's `DocumentReader` for Linux.
  ///
  /// A document's ``ReadableDocument/reader(configuration:)`` returns one; the host
  /// (SwiftUI's `DocumentGroup`, or Folio's ``DocumentSession``) calls
  /// ``read(from:progress:)`` in the background with coordinated file access and hands
  /// the snapshot to ``ReadableDocument/apply(snapshot:previous:)`` on the main actor.
  ///
  /// Use ``FileWrapperDocumentReader`` when a ``FileWrapper`` is all you need; implement a
  /// reader of your own for direct URL access or streaming reads:
  ///
  /// ```swift
  /// struct PagesReader: DocumentReader {
  ///   @concurrent
  ///   func read(from source: URL, progress: consuming Subprogress) async throws
  ///     -> sending [String]
  ///   {
  ///     let names = try FileManager.default.contentsOfDirectory(atPath: source.path)
  ///     let manager = progress.start(totalCount: names.count)
  ///     …
  ///   }
  /// }
  /// ```
  public protocol DocumentReader<Snapshot> {
    /// What a read produces: any type, delivered to the document on the main actor.
    associatedtype Snapshot
    /// The location read from; the host passes the document's file URL.
    associatedtype Source = URL

    /// Reads the document's content.
    ///
    /// - Parameters:
    ///   - source: The document's file or package folder.
    ///   - progress: The share of the host's progress this read reports on: start it once
    ///     with ``Subprogress/start(totalCount:)`` and complete units as they finish.
    /// - Returns: A snapshot of the document's content.
    /// - Throws: When the document cannot be read or is malformed.
    @concurrent
    func read(from source: sending Source, progress: consuming Subprogress) async throws
      -> sending Snapshot
  }
#endif
