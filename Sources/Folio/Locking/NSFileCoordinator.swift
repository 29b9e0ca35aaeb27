#if canImport(Darwin)
  // Foundation on Apple's platforms has NSFileCoordinator; Folio's would shadow it.
#else
  // The one file of the document model on corelibs Foundation (NSError, NSErrorPointer),
  // so it lives in the umbrella: the layers, and the `folio` command built on them, use
  // FoundationEssentials alone.
  public import Foundation
  import FolioSystem
  public import Archives
  import Synchronization

  /// A pointer through which a method reports an error, as Foundation's Objective-C API does.
  ///
  /// Pass `&error` for a `var error: NSError?`, or leave it out to ignore the error.
  public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

  /// A coordinator and its intents, carried to the queue that runs the accessor.
  ///
  /// Foundation's coordinator is used from any thread; Folio's holds only its options and
  /// an atomic flag, and the intents are read by one accessor at a time.
  private struct UncheckedCoordination: @unchecked Sendable {
    let coordinator: NSFileCoordinator
    let intents: [NSFileAccessIntent]

    func run(_ accessor: @Sendable ((any Error)?) -> Void) {
      coordinator.access(intents, accessor)
    }
  }

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
  /// Reading a folder with ``ReadingOptions/forUploading`` hands the accessor a zip archive of
  /// it (the folder as its top entry) in a temporary folder, removed when the accessor
  /// returns, as Foundation documents for directories; a file is handed over as it is.
  ///
  /// Unlike Foundation's, Folio's coordinator does not talk to file presenters or to
  /// other applications' coordinators: it coordinates with whatever takes the same
  /// locks (Folio's library and the `folio` command).
  open class NSFileCoordinator {
    /// Options for coordinated reading: ``forUploading`` zips a folder for the accessor; the
    /// others are accepted for compatibility and change nothing in Folio.
    public struct ReadingOptions: OptionSet, Sendable {
      public let rawValue: UInt
      public init(rawValue: UInt) { self.rawValue = rawValue }
      /// Read without asking presenters to save first.
      public static let withoutChanges = ReadingOptions(rawValue: 1 << 0)
      /// Resolve a symbolic link at the item before reading.
      public static let resolvesSymbolicLink = ReadingOptions(rawValue: 1 << 1)
      /// Read only metadata that is immediately available.
      public static let immediatelyAvailableMetadataOnly = ReadingOptions(rawValue: 1 << 2)
      /// Read in order to upload: a folder (a package) is handed to the accessor as a zip
      /// archive of it, in a temporary location removed when the accessor returns.
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
    ///   - options: Reading options: ``ReadingOptions/forUploading`` hands a folder over as
    ///     a temporary zip archive of it.
    ///   - outError: Receives the error when the lock cannot be had or the archive cannot be
    ///     written; the reader is not called then.
    ///   - reader: Reads the item at the URL it is given.
    open func coordinate(
      readingItemAt url: URL, options: ReadingOptions = [], error outError: NSErrorPointer = nil,
      byAccessor reader: (URL) -> Void
    ) {
      withLocks([(url, .shared)], error: outError) {
        Self.withReadableForm(of: url, options: options, error: outError, reader)
      }
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
    ///   - readingOptions: Reading options: ``ReadingOptions/forUploading`` hands a folder
    ///     over as a temporary zip archive of it.
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
        Self.withReadableForm(of: readingURL, options: readingOptions, error: outError) {
          readerWriter($0, writingURL)
        }
      }
    }

    /// Performs several coordinated reads and writes asynchronously: takes every intent's
    /// lock, then runs the accessor on `queue` while they are held, as Foundation's does.
    ///
    /// The accessor reads each intent's ``NSFileAccessIntent/url`` (for a reading intent
    /// with ``ReadingOptions/forUploading`` of a folder, a temporary zip archive of it).
    /// When a lock cannot be had, the accessor gets the error and no lock is held.
    ///
    /// - Parameters:
    ///   - intents: The items to read and write, with their options.
    ///   - queue: Where the accessor runs.
    ///   - accessor: Does the reading and writing; its argument is `nil` when every lock
    ///     is held, else the error.
    open func coordinate(
      with intents: [NSFileAccessIntent], queue: OperationQueue,
      byAccessor accessor: @escaping @Sendable ((any Error)?) -> Void
    ) {
      let work = UncheckedCoordination(coordinator: self, intents: intents)
      queue.addOperation {
        work.run(accessor)
      }
    }

    /// The body of ``coordinate(with:queue:byAccessor:)``, on the queue's thread.
    func access(_ intents: [NSFileAccessIntent], _ accessor: ((any Error)?) -> Void) {
      var lockError: NSError?
      var readError: NSError?
      var ran = false
      let items = intents.map { intent in
        (intent.requestedURL, intent.isWriting ? PackageLock.Kind.exclusive : .shared)
      }
      withLocks(items, error: &lockError) {
        Self.withReadableForms(of: intents[...], error: &readError) {
          ran = true
          accessor(nil)
        }
      }
      if !ran { accessor(lockError ?? readError ?? CocoaError(.fileReadUnknown)) }
    }

    // MARK: Reading for uploading

    /// Runs `body` with the URL a reader gets: for ``ReadingOptions/forUploading`` of a
    /// folder, a zip archive of it in a temporary folder removed afterwards.
    static func withReadableForm(
      of url: URL, options: ReadingOptions, error outError: NSErrorPointer, _ body: (URL) -> Void
    ) {
      guard options.contains(.forUploading), FileTree.isFolderFollowingLinks(url.path) else {
        body(url)
        return
      }
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "folio-upload-\(UUID().uuidString)")
      defer { FileTree.remove(atPath: folder.path) }
      let name = url.standardizedFileURL.lastPathComponent
      let archive = folder.appendingPathComponent(name + ".zip")
      do {
        try FileTree.createFolders(atPath: folder.path, permissions: 0o700)
        _ = try Packer.packSynchronously(
          url.standardizedFileURL, to: archive, options: PackOptions(format: .zip))
      } catch {
        outError?.pointee = NSError(
          domain: NSCocoaErrorDomain, code: CocoaError.Code.fileReadUnknown.rawValue,
          userInfo: [
            NSLocalizedDescriptionKey: "cannot zip '\(url.path)' for uploading: \(error)",
            NSURLErrorKey: url, NSUnderlyingErrorKey: error,
          ])
        return
      }
      body(archive)
    }

    /// ``withReadableForm(of:options:error:_:)`` for each reading intent in turn, setting
    /// the intent's ``NSFileAccessIntent/url`` while `body` runs.
    private static func withReadableForms(
      of intents: ArraySlice<NSFileAccessIntent>, error outError: NSErrorPointer,
      _ body: () -> Void
    ) {
      guard let intent = intents.first else {
        body()
        return
      }
      let rest = intents.dropFirst()
      guard !intent.isWriting else {
        withReadableForms(of: rest, error: outError, body)
        return
      }
      withReadableForm(of: intent.requestedURL, options: intent.readingOptions, error: outError) {
        url in
        intent.url = url
        defer { intent.url = intent.requestedURL }
        withReadableForms(of: rest, error: outError, body)
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
