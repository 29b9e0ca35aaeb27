#if !canImport(SwiftUI)
  public import FoundationEssentials
  public import ProgressReporting

  /// A type that writes a document's content to a file: SwiftUI's `DocumentWriter` for Linux.
  ///
  /// A document's ``WritableDocument/writer(configuration:)`` returns one; the host calls
  /// ``write(snapshot:to:previous:progress:)`` in the background, with coordinated file
  /// access, after taking a snapshot with ``WritableDocument/snapshot(contentType:)`` on the
  /// main actor.
  ///
  /// Use ``FileWrapperDocumentWriter`` when building a ``FileWrapper`` is all you need;
  /// implement a writer of your own for direct URL access or streaming writes.
  public protocol DocumentWriter<Snapshot> {
    /// What a write stores: the type ``WritableDocument/snapshot(contentType:)`` returns.
    associatedtype Snapshot
    /// The location written to; the host passes a file URL.
    associatedtype Destination = URL

    /// Writes the document's content.
    ///
    /// ``DocumentSession`` hands a package document's writer a copy of the package as it
    /// is on disk (its files linked, not copied), so a writer may write only what
    /// changed since `previous`; it moves the result into place atomically when the
    /// writer returns, and discards it when the writer throws. On a package's first save
    /// and on Save As the destination is an empty folder the session created, as SwiftUI
    /// creates it, so the writer writes its files into it either way. A single-file
    /// document's writer gets a path where nothing exists yet.
    ///
    /// - Parameters:
    ///   - snapshot: The content to write.
    ///   - destination: Where to write it.
    ///   - previous: The snapshot last written to (or read from) the document, or `nil`
    ///     on the first save; compare it with `snapshot` to write only what changed.
    ///   - progress: The share of the host's progress this write reports on.
    /// - Throws: When the content cannot be written.
    @concurrent
    func write(
      snapshot: sending Snapshot, to destination: sending Destination,
      previous: sending Snapshot?, progress: consuming Subprogress
    ) async throws
  }
#endif
