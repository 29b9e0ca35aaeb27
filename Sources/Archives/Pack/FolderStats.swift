import FolioSystem
import Glibc

/// What `fstatat` (and, when asked, `listxattrat`) says of a large folder's names, asked
/// by two threads at once: the walk's own and a helper.
///
/// Looking names up is most of what the kernel does for a walk that reads no file (a
/// pack that reuses an earlier archive's entries), and one thread asks one name at a
/// time. Here the names are looked up a chunk at a time, each chunk claimed, in order, by
/// whichever thread is free: the helper claims chunk after chunk, and the walk, reaching a
/// chunk not yet done, claims and looks up the next unclaimed one itself instead of
/// waiting, so the two share the lookups whatever else the walk's thread does (it also
/// makes and hands on the entries). A name that cannot be looked up keeps its `errno`,
/// reported when the walk reaches it, as if it had asked then.
final class FolderStats: @unchecked Sendable {
  /// One name's answers.
  struct Answer {
    var info: stat
    /// 0, or the `errno` of a failed `fstatat`.
    var errorNumber: Int32
    /// For a folder or a regular file, when asked and known.
    var attributeListLength: Int?
  }

  /// Folders with fewer names are walked one name at a time: a thread costs more than
  /// half their lookups.
  static let parallelThreshold = 1024
  /// The names one claim looks up: few claims, and a walk that waits for the helper's chunk
  /// waits for a short one.
  static let chunkSize = 256

  private let folder: Int32
  private let names: FolderNames
  private let listingAttributes: Bool
  /// One answer a name, written by the thread that claimed its chunk, read once the chunk
  /// is done.
  private let answers: UnsafeMutableBufferPointer<Answer>
  private let chunkCount: Int
  private let lock = ConditionLock()
  /// The first chunk nobody has claimed (under the lock).
  private var nextClaim = 0
  /// Which chunks are looked up (under the lock).
  private var done: [Bool]
  /// Whether the helper is to claim no more chunks (under the lock).
  private var stopped = false
  /// The helper, until it is waited for.
  private var helper: BackgroundWork<Void>?
  /// The last chunk the walk's thread saw done (that thread alone; it asks in order).
  @exclusivity(unchecked) private var lastChunkSeenDone = -1

  /// Starts looking a folder's names up on a helper thread; the walk's thread looks up
  /// chunks too as it asks for answers (``subscript(_:)``).
  ///
  /// - Parameters:
  ///   - folder: The open folder, kept open until ``waitForHelper()`` returns.
  ///   - names: Its names.
  ///   - listingAttributes: Whether to ask folders and regular files for the length of
  ///     their extended attribute names' list too.
  init(folder: Int32, names: FolderNames, listingAttributes: Bool) {
    self.folder = folder
    self.names = names
    self.listingAttributes = listingAttributes
    answers = .allocate(capacity: names.count)
    chunkCount = (names.count + Self.chunkSize - 1) / Self.chunkSize
    done = Array(repeating: false, count: chunkCount)
    helper = BackgroundWork(inBackground: true) { [self] in
      while let chunk = lock.withLock({ stopped ? nil : claim() }) { ask(chunk) }
    }
  }

  deinit {
    helper?.wait()
    answers.deallocate()
  }

  /// Lets the helper claim no more chunks and waits until it has ended: before the folder is
  /// closed.
  func waitForHelper() {
    guard let helper else { return }
    lock.withLock { stopped = true }
    helper.wait()
    self.helper = nil
  }

  /// The answers for the name at `index`, looked up by the helper or here (the walk's
  /// thread, which asks for the names in order).
  subscript(index: Int) -> Answer {
    let chunk = index / Self.chunkSize
    if chunk != lastChunkSeenDone {
      waitUntilDone(chunk)
      lastChunkSeenDone = chunk
    }
    return answers[index]
  }

  /// Returns once `chunk` is looked up, looking up unclaimed chunks meanwhile.
  private func waitUntilDone(_ chunk: Int) {
    while true {
      let claimed: Int? = lock.withLock {
        if done[chunk] { return nil }
        if let claimed = claim() { return claimed }
        // Every chunk is claimed, this one by the helper: it is nearly done.
        while !done[chunk] { lock.wait() }
        return nil
      }
      guard let claimed else { return }
      ask(claimed)
    }
  }

  /// The next chunk nobody has claimed, now the caller's, or `nil` when none is left (under
  /// the lock).
  private func claim() -> Int? {
    guard nextClaim < chunkCount else { return nil }
    nextClaim += 1
    return nextClaim - 1
  }

  /// Looks up one chunk's names, then marks it done.
  private func ask(_ chunk: Int) {
    let start = chunk * Self.chunkSize
    for index in start..<min(start + Self.chunkSize, names.count) {
      let (_, name) = names[index]
      // Answered in place: a `stat` is 144 bytes, copied three times on the way before.
      let answer = answers.baseAddress! + index
      answer.initialize(to: Answer(info: stat(), errorNumber: 0, attributeListLength: nil))
      if fstatat(folder, name, &answer.pointee.info, AT_SYMLINK_NOFOLLOW) == 0 {
        let type = answer.pointee.info.st_mode & S_IFMT
        if listingAttributes, type == S_IFDIR || type == S_IFREG {
          answer.pointee.attributeListLength = ExtendedAttributes.listLength(in: folder, name: name)
        }
      } else {
        answer.pointee.errorNumber = errno
      }
    }
    lock.withLock {
      done[chunk] = true
      lock.broadcast()
    }
  }
}
