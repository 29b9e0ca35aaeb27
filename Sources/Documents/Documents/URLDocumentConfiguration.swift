#if !canImport(SwiftUI)
  public import FoundationEssentials
  public import Observation
  public import Archives

  /// The configuration of an open document: SwiftUI's `URLDocumentConfiguration` for Linux.
  ///
  /// It holds the document's file URL and last modification date, and makes file
  /// coordinators for access outside the document's reader and writer.
  ///
  /// A ``DocumentSession`` passes one to the closure that makes the document and keeps it
  /// up to date: after a Save As, ``fileURL`` is the new location. The class is
  /// `@Observable`, so code can react to those changes.
  ///
  /// Inside ``DocumentReader/read(from:progress:)`` and
  /// ``DocumentWriter/write(snapshot:to:previous:progress:)`` use the URL they are given,
  /// not ``fileURL``.
  @MainActor
  @Observable
  public final class URLDocumentConfiguration {
    /// Where the document is, or `nil` for a document never saved.
    public internal(set) var fileURL: URL?
    /// When the document's content on disk last changed, as last read or written.
    public var lastContentModificationDate: Date?
    /// How long reading, saving and a coordinator made by ``makeFileCoordinator()`` wait
    /// for another reader's or writer's lock, and whom they tell (Folio's addition).
    public var lockOptions: LockOptions

    /// Creates a configuration, for programs that host documents themselves.
    ///
    /// - Parameters:
    ///   - fileURL: Where the document is, or `nil` for a new one.
    ///   - lockOptions: How long coordinated access waits for a lock, and whom it tells.
    public init(fileURL: URL?, lockOptions: LockOptions = .default) {
      self.fileURL = fileURL
      self.lockOptions = lockOptions
    }
  }
#endif
