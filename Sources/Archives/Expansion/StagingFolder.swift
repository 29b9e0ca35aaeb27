import FolioSystem
import FoundationEssentials
import Glibc
import Synchronization

/// The temporary folder an expansion writes into, beside its destination,
/// and the moves that make it appear there (or vanish) as one step.
///
/// Every file is created by Folio itself through `openat` relative to a
/// folder descriptor opened with `O_NOFOLLOW`, with `O_CREAT | O_EXCL`, so
/// nothing is ever written through a symbolic link and nothing already there
/// is overwritten; sizes are never set from a header (no `ftruncate` to a
/// declared size). Folders are created owner-only and get their own modes and
/// times only at the end, deepest first; symbolic links are created last.
/// A durable expansion flushes what it wrote before the move (``FileFlusher``):
/// the file system once at the end when it holds little else unwritten, else
/// each file and folder; then after the move the folders the move changed.
/// The folder is named `.NAME.folio-expand-PID-XXXXXX`, so a leftover from a
/// crash is recognisable; it is removed whenever the expansion does not
/// commit, and a killed run's leftover is removed by the next expansion to
/// the same destination (see ``LeftoverTemporaries``).
package final class StagingFolder {
  /// A timestamp to restore: seconds since 1970 and nanoseconds.
  package struct Time: Equatable {
    package var seconds: Int64
    package var nanoseconds: Int
  }

  /// The marker in a staging folder's name: `.NAME.folio-expand-PID-XXXXXX`.
  static let marker = TemporaryName.Kind.expansion.marker

  /// The most folder descriptors kept open between entries.
  static let directoryCacheLimit = 256

  /// Where the expansion should appear.
  let destination: URL
  /// The staging folder itself.
  let url: URL
  let root: Int32
  var directoryCache: [String: Int32] = [:]
  /// The folder ``directory(_:)`` answered last, while it is in `directoryCache`.
  private var lastDirectory: (components: [String], descriptor: Int32)?
  var directories: [(path: RelativePath, permissions: UInt32, time: Time?)] = []
  /// Folders created only because deeper entries need them (no entry of their own).
  var impliedDirectories: Set<[String]> = []
  var symbolicLinks: [(path: RelativePath, target: [UInt8], time: Time?)] = []
  var rootAttributes: (permissions: UInt32, time: Time?)?
  /// Whether to remember the regular files written (for ``adoptUnchangedFiles(source:top:)``).
  var recordsFiles = false
  /// The regular files written, when ``recordsFiles`` is set.
  var files: [(path: RelativePath, size: Int64)] { recordedFiles.withLock { $0 } }
  /// Appended to by whichever thread finishes a file (parallel zip extraction).
  private let recordedFiles = Mutex<[(path: RelativePath, size: Int64)]>([])
  var finished = false
  /// The attributes the file system refused, by whichever thread set them.
  let attributeFailures = Mutex<(warnings: [ArchiveWarning], count: Int)>(([], 0))
  /// Folders' ACLs, set once their modes are (setting one changes the mode).
  var directoryACLs: [[String]: [ExtendedAttribute]] = [:]
  /// The bytes written into regular files, by whichever thread wrote them.
  let writtenBytes = Atomic<Int64>(0)
  /// Flushes what is written, for a durable expansion.
  let flusher: FileFlusher?

  /// Creates the staging folder beside `destination`.
  ///
  /// - Parameters:
  ///   - destination: Where the expansion should appear; its folder must exist.
  ///   - durable: Whether everything written is flushed to disk before the move.
  /// - Throws: ``PackagingError`` (`destination-write-failed`).
  convenience init(for destination: URL, durable: Bool) throws {
    try self.init(for: destination, flusher: durable ? FileFlusher() : nil)
  }

  /// Creates the staging folder beside `destination`, flushed by `flusher`.
  ///
  /// - Parameters:
  ///   - destination: Where the expansion should appear; its folder must exist.
  ///   - flusher: What makes the written tree durable before the move; `nil` for none.
  /// - Throws: ``PackagingError`` (`destination-write-failed`).
  init(for destination: URL, flusher: FileFlusher?) throws {
    self.flusher = flusher
    self.destination = destination.standardizedFileURL
    let parent = self.destination.deletingLastPathComponent()
    // The process ID in the name tells a killed run's leftover (removed here, when older
    // than this run) from a live run's folder.
    LeftoverTemporaries.remove(beside: self.destination.path)
    var template = Array(
      parent.appendingPathComponent(
        ".\(self.destination.lastPathComponent)\(Self.marker)\(getpid())-XXXXXX"
      ).path.utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard made != nil else {
      throw PackagingError(
        .destinationWriteFailed, "cannot create a temporary folder in '\(parent.path)'",
        cause: SystemError(errno: errno))
    }
    let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    url = URL(fileURLWithPath: path, isDirectory: true)
    root = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard root >= 0 else {
      let code = errno
      rmdir(path)
      throw PackagingError(
        .destinationWriteFailed, "cannot open '\(path)'", cause: SystemError(errno: code))
    }
  }

  deinit {
    closeDirectories()
    close(root)
    if !finished { FileTree.remove(atPath: url.path) }
  }

  // MARK: Creating entries

  /// Creates a folder (and its parents) now; its mode and time are applied at the end.
  ///
  /// - Parameters:
  ///   - path: The folder below the root.
  ///   - permissions: Its final permission bits.
  ///   - time: Its modification time, if the archive stores one.
  /// - Throws: ``PackagingError`` naming the folder.
  func makeDirectory(_ path: RelativePath, permissions: UInt32, time: Time?) throws {
    _ = try directory(path.components[...])
    impliedDirectories.remove(path.components)
    directories.append((path, permissions, time))
  }

  /// Records the root folder's own mode and time (an archive's `./` entry).
  ///
  /// - Parameters:
  ///   - permissions: The final permission bits.
  ///   - time: The modification time, if stored.
  func setRootAttributes(permissions: UInt32, time: Time?) {
    rootAttributes = (permissions, time)
  }

  /// Creates an empty regular file, owner-only until ``OutputFile/finish(permissions:time:)``.
  ///
  /// - Parameter path: The file below the root.
  /// - Returns: The open file.
  /// - Throws: ``PackagingError`` naming the file.
  func createFile(_ path: RelativePath) throws -> OutputFile {
    let parent = try directory(path.components.dropLast())
    let name = path.components[path.components.count - 1]
    let descriptor = openat(
      parent, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw failure("cannot create", path) }
    return OutputFile(descriptor: descriptor, path: path, staging: self)
  }

  /// Records a regular file's final size, for `--update`, and the bytes written into it,
  /// for the flush at the end.
  func recordFile(_ path: RelativePath, size: Int64, written: Int64) {
    writtenBytes.add(written, ordering: .relaxed)
    if recordsFiles { recordedFiles.withLock { $0.append((path, size)) } }
  }

  /// Creates a hard link to a file written earlier.
  ///
  /// - Parameters:
  ///   - path: The new name.
  ///   - target: The earlier file.
  /// - Throws: ``PackagingError`` naming the link.
  func link(_ path: RelativePath, to target: RelativePath) throws {
    let parent = try directory(path.components.dropLast())
    let targetParent = try directory(target.components.dropLast())
    guard
      linkat(
        targetParent, target.components[target.components.count - 1], parent,
        path.components[path.components.count - 1], 0) == 0
    else { throw failure("cannot create the hard link", path) }
  }

  /// Records a symbolic link, created after every other entry.
  ///
  /// - Parameters:
  ///   - path: The link.
  ///   - target: Its target, already checked to stay inside.
  ///   - time: Its modification time, if stored.
  func addSymbolicLink(_ path: RelativePath, target: [UInt8], time: Time?) {
    symbolicLinks.append((path, target, time))
  }

  // MARK: Helpers

  /// The descriptor of a folder below the root, creating it (owner-only) when missing.
  func directory(_ components: ArraySlice<String>) throws -> Int32 {
    if components.isEmpty { return root }
    // Most files land in the folder the one before them did: asked again, it is answered
    // without spelling the key.
    if let last = lastDirectory, last.components.elementsEqual(components) {
      return last.descriptor
    }
    let key = components.joined(separator: "/")
    if let cached = directoryCache[key] {
      lastDirectory = (Array(components), cached)
      return cached
    }
    let parent = try directory(components.dropLast())
    let name = components[components.endIndex - 1]
    if mkdirat(parent, name, 0o700) == 0 {
      impliedDirectories.insert(Array(components))
    } else if errno != EEXIST {
      throw failure("cannot create the folder", RelativePath(components: Array(components)))
    }
    let descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw failure("cannot open the folder", RelativePath(components: Array(components)))
    }
    if directoryCache.count >= Self.directoryCacheLimit { closeDirectories() }
    directoryCache[key] = descriptor
    lastDirectory = (Array(components), descriptor)
    return descriptor
  }

  func closeDirectories() {
    lastDirectory = nil
    for descriptor in directoryCache.values { close(descriptor) }
    directoryCache.removeAll(keepingCapacity: true)
  }

  func setTime(_ time: Time, parent: Int32, name: String, path: RelativePath) throws {
    var times = [Self.timespecOf(time), Self.timespecOf(time)]
    guard utimensat(parent, name, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
      throw failure("cannot set the time of", path)
    }
  }

  static func setTime(_ time: Time, path: String) -> Bool {
    var times = [timespecOf(time), timespecOf(time)]
    return utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0
  }

  static func timespecOf(_ time: Time) -> timespec {
    timespec(tv_sec: Int(time.seconds), tv_nsec: time.nanoseconds)
  }

  func failure(_ action: String, _ path: RelativePath) -> PackagingError {
    PackagingError(
      .destinationWriteFailed, "\(action) \(EntryName(path.string).display)",
      cause: SystemError(errno: errno))
  }

  func moveFailure(_ source: URL, _ code: Int32) -> PackagingError {
    PackagingError(
      .destinationWriteFailed, "cannot move '\(source.path)' to '\(destination.path)'",
      cause: SystemError(errno: code))
  }
}
