#if canImport(Darwin)
  // Foundation on Apple's platforms has NSFileCoordinator; Folio's would shadow it.
#else
  // The one file of the document model on corelibs Foundation (NSError, NSErrorPointer),
  // so it lives in the umbrella: the layers, and the `folio` command built on them, use
  // FoundationEssentials alone.
  public import Foundation
  public import Packaging
  import Synchronization

  /// A pointer through which a method reports an error, as Foundation's Objective-C API does.
  ///
  /// Pass `&error` for a `var error: NSError?`, or leave it out to ignore the error.
  public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

  /// Coordinates reading and writing one file or package with every other Folio reader and
  /// writer, in this process or another: Foundation's `NSFileCoordinator` over ``PackageLock``.
  ///
  /// Reading takes a shared lock, writing an exclusive one, on the item; a coordinator
  /// made for a document (`URLDocumentConfiguration.makeFileCoordinator()`) locks the
  /// whole document for items inside it, so reading `metadata.json` of a package waits
  /// for a save of the package to finish. The accessor runs while the lock is held and
  /// the lock is released when it returns.
  ///
  /// When the lock cannot be had within ``lockOptions`` (or ``cancel()`` is called while
  /// waiting), the accessor is not called and the error (a `CocoaError.fileLocking`
  /// whose underlying error is Folio's ``PackagingError`` `lock-timeout`) goes to the
  /// `error` pointer, as Foundation reports it; leave the pointer out to ignore it.
  ///
  /// Unlike Foundation's, Folio's coordinator does not talk to file presenters or to
  /// other applications' coordinators: it coordinates with whatever takes the same
  /// locks (Folio's library and the `folio` command).
  open class NSFileCoordinator {
    /// Options for coordinated reading (accepted for compatibility; Folio's reads are the same).
    public struct ReadingOptions: OptionSet, Sendable {
      public let rawValue: UInt
      public init(rawValue: UInt) { self.rawValue = rawValue }
      /// Read without asking presenters to save first.
      public static let withoutChanges = ReadingOptions(rawValue: 1 << 0)
      /// Resolve a symbolic link at the item before reading.
      public static let resolvesSymbolicLink = ReadingOptions(rawValue: 1 << 1)
      /// Read only metadata that is immediately available.
      public static let immediatelyAvailableMetadataOnly = ReadingOptions(rawValue: 1 << 2)
      /// Read in order to upload.
      public static let forUploading = ReadingOptions(rawValue: 1 << 3)
    }

    /// Options for coordinated writing (accepted for compatibility; Folio's writes are the same).
    public struct WritingOptions: OptionSet, Sendable {
      public let rawValue: UInt
      public init(rawValue: UInt) { self.rawValue = rawValue }
      /// Write in order to delete the item.
      public static let forDeleting = WritingOptions(rawValue: 1 << 0)
      /// Write in order to move the item.
      public static let forMoving = WritingOptions(rawValue: 1 << 1)
      /// Write in order to merge changes.
      public static let forMerging = WritingOptions(rawValue: 1 << 2)
      /// Write in order to replace the item.
      public static let forReplacing = WritingOptions(rawValue: 1 << 3)
      /// Change only metadata that does not depend on content.
      public static let contentIndependentMetadataOnly = WritingOptions(rawValue: 1 << 4)
    }

    /// How long a coordinated access waits for another holder's lock before failing,
    /// and whom it tells when it waits (Folio's addition).
    public var lockOptions: LockOptions
    /// The document whose items this coordinator locks as one (set by the document
    /// configuration that made it); `nil` to lock each item itself.
    let document: URL?
    private let cancelled = Atomic<Bool>(false)

    /// Creates a coordinator that locks each item it is given.
    public init() {
      lockOptions = .default
      document = nil
    }

    /// Creates a coordinator that locks `document` for it and every item inside it.
    ///
    /// - Parameters:
    ///   - document: The document (a file or package) to lock as one.
    ///   - lockOptions: How long to wait for another holder's lock, and whom to tell.
    package init(document: URL, lockOptions: LockOptions = .default) {
      self.lockOptions = lockOptions
      self.document = document.standardizedFileURL
    }

    /// Reads an item while holding a shared lock on it (or on its document).
    ///
    /// - Parameters:
    ///   - url: The item to read.
    ///   - options: Reading options (no effect in Folio).
    ///   - outError: Receives the error when the lock cannot be had; the reader is not
    ///     called then.
    ///   - reader: Reads the item at the URL it is given.
    open func coordinate(
      readingItemAt url: URL, options: ReadingOptions = [], error outError: NSErrorPointer = nil,
      byAccessor reader: (URL) -> Void
    ) {
      withLocks([(url, .shared)], error: outError) { reader(url) }
    }

    /// Writes an item while holding an exclusive lock on it (or on its document).
    ///
    /// - Parameters:
    ///   - url: The item to write.
    ///   - options: Writing options (no effect in Folio).
    ///   - outError: Receives the error when the lock cannot be had; the writer is not
    ///     called then.
    ///   - writer: Writes the item at the URL it is given.
    open func coordinate(
      writingItemAt url: URL, options: WritingOptions = [], error outError: NSErrorPointer = nil,
      byAccessor writer: (URL) -> Void
    ) {
      withLocks([(url, .exclusive)], error: outError) { writer(url) }
    }

    /// Reads one item and writes another while holding both locks.
    ///
    /// When both are the same lock (one document), the exclusive lock covers both.
    ///
    /// - Parameters:
    ///   - readingURL: The item to read.
    ///   - readingOptions: Reading options (no effect in Folio).
    ///   - writingURL: The item to write.
    ///   - writingOptions: Writing options (no effect in Folio).
    ///   - outError: Receives the error when a lock cannot be had.
    ///   - readerWriter: Reads and writes, given both URLs.
    open func coordinate(
      readingItemAt readingURL: URL, options readingOptions: ReadingOptions = [],
      writingItemAt writingURL: URL, options writingOptions: WritingOptions = [],
      error outError: NSErrorPointer = nil, byAccessor readerWriter: (URL, URL) -> Void
    ) {
      withLocks([(readingURL, .shared), (writingURL, .exclusive)], error: outError) {
        readerWriter(readingURL, writingURL)
      }
    }

    /// Stops the coordinated accesses that are still waiting for their locks.
    ///
    /// Their accessors are not called and they report a `CocoaError.userCancelled`;
    /// accesses already running go on.
    open func cancel() {
      cancelled.store(true, ordering: .relaxed)
    }

    // MARK: Locks

    /// What to lock for an item: its document when it is the document or inside it.
    func lockTarget(for url: URL) -> URL {
      let item = url.standardizedFileURL
      guard let document else { return item }
      let root = document.path
      if item.path == root || item.path.hasPrefix(root.hasSuffix("/") ? root : root + "/") {
        return document
      }
      return item
    }

    private func withLocks(
      _ items: [(URL, PackageLock.Kind)], error outError: NSErrorPointer, _ body: () -> Void
    ) {
      // One lock per target, the strongest kind asked for, taken in path order so two
      // coordinators taking the same pair never wait for each other.
      var kinds: [String: (URL, PackageLock.Kind)] = [:]
      for (url, kind) in items {
        let target = lockTarget(for: url)
        let stronger = kinds[target.path]?.1 == .exclusive ? .exclusive : kind
        kinds[target.path] = (target, stronger)
      }
      var held: [PackageLock] = []
      defer { held.forEach { $0.release() } }
      for path in kinds.keys.sorted() {
        guard let (target, kind) = kinds[path] else { continue }
        do {
          held.append(try acquire(kind, on: target))
        } catch {
          outError?.pointee = Self.bridge(error)
          return
        }
      }
      body()
    }

    /// Takes a lock, trying again until the options' timeout passes or ``cancel()`` is called.
    private func acquire(_ kind: PackageLock.Kind, on target: URL) throws -> PackageLock {
      let deadline = ContinuousClock.now.advanced(by: lockOptions.timeout)
      var announced = false
      while true {
        if cancelled.load(ordering: .relaxed) { throw CocoaError(.userCancelled) }
        do {
          return try PackageLock.acquireBlocking(
            kind, on: target, options: LockOptions(timeout: .zero))
        } catch let error as PackagingError where error.code == .lockTimeout {
          if ContinuousClock.now >= deadline {
            throw PackageLock.timedOut(target, kind: kind, timeout: lockOptions.timeout)
          }
          if !announced {
            announced = true
            lockOptions.onWait?(LockWait(kind: kind, package: target, timeout: lockOptions.timeout))
          }
          usleep(50_000)
        }
      }
    }

    private static func bridge(_ error: any Error) -> NSError {
      if let cocoa = error as? CocoaError { return cocoa as NSError }
      return NSError(
        domain: NSCocoaErrorDomain, code: CocoaError.Code.fileLocking.rawValue,
        userInfo: [
          NSLocalizedDescriptionKey: "\(error)", NSUnderlyingErrorKey: error,
        ])
    }
  }
#endif
