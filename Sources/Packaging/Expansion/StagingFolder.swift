import FolioSystem
import Foundation
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
/// A durable expansion flushes what it wrote, and nothing else, before the
/// move (``FileFlusher``): each file as soon as it is written, on the
/// flusher's threads, then each folder, then after the move the folders the
/// move changed.
/// The folder is named `.NAME.folio-expand-PID-XXXXXX`, so a leftover from a
/// crash is recognisable; it is removed whenever the expansion does not
/// commit, and a killed run's leftover is removed by the next expansion to
/// the same destination (see ``LeftoverTemporaries``).
final class StagingFolder {
  /// A timestamp to restore: seconds since 1970 and nanoseconds.
  struct Time: Equatable {
    var seconds: Int64
    var nanoseconds: Int
  }

  /// The marker in a staging folder's name: `.NAME.folio-expand-PID-XXXXXX`.
  static let marker = TemporaryName.Kind.expansion.marker

  /// The most folder descriptors kept open between entries.
  static let directoryCacheLimit = 256

  /// Where the expansion should appear.
  let destination: URL
  /// The staging folder itself.
  let url: URL
  private let root: Int32
  private var directoryCache: [String: Int32] = [:]
  private var directories: [(path: RelativePath, permissions: UInt32, time: Time?)] = []
  /// Folders created only because deeper entries need them (no entry of their own).
  private var impliedDirectories: Set<[String]> = []
  private var symbolicLinks: [(path: RelativePath, target: [UInt8], time: Time?)] = []
  private var rootAttributes: (permissions: UInt32, time: Time?)?
  /// Whether to remember the regular files written (for ``adoptUnchangedFiles(source:top:)``).
  var recordsFiles = false
  /// The regular files written, when ``recordsFiles`` is set.
  var files: [(path: RelativePath, size: Int64)] { recordedFiles.withLock { $0 } }
  /// Appended to by whichever thread finishes a file (parallel zip extraction).
  private let recordedFiles = Mutex<[(path: RelativePath, size: Int64)]>([])
  private var finished = false
  /// Flushes what is written, for a durable expansion.
  fileprivate let flusher: FileFlusher?

  /// Creates the staging folder beside `destination`.
  ///
  /// - Parameters:
  ///   - destination: Where the expansion should appear; its folder must exist.
  ///   - durable: Whether everything written is flushed to disk before the move.
  /// - Throws: ``PackagingError`` (`destination-write-failed`).
  init(for destination: URL, durable: Bool) throws {
    flusher = durable ? FileFlusher() : nil
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

  /// Records a regular file's final size, for `--update`.
  fileprivate func recordFile(_ path: RelativePath, size: Int64) {
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

  // MARK: Finishing

  /// Creates the symbolic links, applies folder modes and times deepest first,
  /// and, for a durable expansion, waits until every file and folder is on disk.
  ///
  /// - Parameter top: The archive's one top folder when it becomes the destination.
  /// - Returns: The folder to move into place.
  /// - Throws: ``PackagingError`` naming what could not be created or flushed.
  func prepare(top: String?) throws -> URL {
    for link in symbolicLinks {
      let parent = try directory(link.path.components.dropLast())
      let name = link.path.components[link.path.components.count - 1]
      let target = String(decoding: link.target, as: UTF8.self)
      guard symlinkat(target, parent, name) == 0 else {
        throw failure("cannot create the symbolic link", link.path)
      }
      if let time = link.time {
        try setTime(time, parent: parent, name: name, path: link.path)
      }
    }
    // A folder no entry names gets the usual 0755, as bsdtar and unzip give it.
    let implied = impliedDirectories.map {
      (RelativePath(components: $0), UInt32(0o755), Time?.none)
    }
    // Deepest first, so restoring a parent's time comes after its children change it.
    let ordered = (directories + implied).sorted {
      $0.path.components.count > $1.path.components.count
    }
    for folder in ordered {
      let parent = try directory(folder.path.components.dropLast())
      let name = folder.path.components[folder.path.components.count - 1]
      // Through the folder's own descriptor (still owner-only, so it opens), which the
      // flusher then syncs with the time and mode just set.
      let descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      guard descriptor >= 0 else { throw failure("cannot open the folder", folder.path) }
      do {
        if let time = folder.time {
          var times = [Self.timespecOf(time), Self.timespecOf(time)]
          guard futimens(descriptor, &times) == 0 else {
            throw failure("cannot set the time of", folder.path)
          }
        }
        // The moved folder keeps owner write until it is in place (moving a folder
        // to another parent rewrites its `..`).
        let permissions =
          folder.path.components.count == 1 && top != nil ? 0o700 : folder.permissions
        guard fchmod(descriptor, mode_t(permissions)) == 0 else {
          throw failure("cannot set the mode of", folder.path)
        }
      } catch {
        close(descriptor)
        throw error
      }
      if let flusher {
        flusher.flushAndClose(
          descriptor, isFolder: true, name: EntryName(folder.path.string).display)
      } else {
        close(descriptor)
      }
    }
    closeDirectories()
    if let flusher {
      let descriptor = dup(root)
      if descriptor >= 0 {
        flusher.flushAndClose(descriptor, isFolder: true, name: "'\(url.path)'")
      }
      try flusher.waitForAll()
    }
    return movedRoot(top: top)
  }

  /// The folder that will be moved into place: the staging folder, or its one top folder.
  ///
  /// - Parameter top: The archive's one top folder when it becomes the destination.
  /// - Returns: The folder.
  func movedRoot(top: String?) -> URL {
    if let top { return url.appendingPathComponent(top, isDirectory: true) }
    return url
  }

  /// Replaces staged files whose bytes equal the destination's with hard links to the
  /// destination's files, so unchanged files keep their inode and modification time.
  ///
  /// Call it before ``prepare(top:)``: linking and renaming inside a folder changes the
  /// folder's time, which `prepare` then restores, and `prepare` flushes the links too.
  ///
  /// - Parameters:
  ///   - source: The folder that will be moved into place.
  ///   - top: The top folder's name when it is unwrapped.
  /// - Returns: How many files were kept.
  func adoptUnchangedFiles(source: URL, top: String?) throws -> Int {
    var kept = 0
    for file in files {
      var components = file.path.components[...]
      if let top {
        guard components.first == top else { continue }
        components = components.dropFirst()
      }
      let relative = components.joined(separator: "/")
      let staged = source.appendingPathComponent(relative).path
      let existing = destination.appendingPathComponent(relative).path
      var stagedInfo = stat()
      var existingInfo = stat()
      guard lstat(staged, &stagedInfo) == 0, stagedInfo.st_nlink == 1,
        lstat(existing, &existingInfo) == 0, existingInfo.st_mode & S_IFMT == S_IFREG,
        existingInfo.st_size == stagedInfo.st_size,
        // A new mode makes it a changed file: changing the shared inode's mode here would
        // alter the destination before the commit (and for good if the commit failed).
        existingInfo.st_mode & 0o7777 == stagedInfo.st_mode & 0o7777,
        try Self.sameBytes(staged, existing)
      else { continue }
      let temporary = staged + ".folio-keep"
      // On another file system the link fails: the new copy is kept instead.
      guard Glibc.link(existing, temporary) == 0 else { continue }
      guard rename(temporary, staged) == 0 else {
        unlink(temporary)
        throw PackagingError(
          .destinationWriteFailed, "cannot keep the unchanged file '\(existing)'",
          cause: SystemError(errno: errno))
      }
      kept += 1
    }
    return kept
  }

  /// How an expansion treats an existing destination.
  enum Commit {
    /// Fail if the destination exists.
    case fresh
    /// Swap the destination for the new tree, then remove the old one.
    case replace
  }

  /// Moves the prepared tree into place and removes the staging folder.
  ///
  /// - Parameters:
  ///   - source: From ``prepare(top:)``.
  ///   - commit: Whether an existing destination is replaced.
  ///   - topPermissions: The moved folder's final mode, applied once it is in place.
  /// - Throws: ``PackagingError`` (`destination-exists`, `destination-write-failed`).
  func commit(_ source: URL, _ commit: Commit, topPermissions: UInt32?) throws {
    let target = destination.path
    var info = stat()
    let exists = lstat(target, &info) == 0
    if exists && commit == .fresh {
      throw PackagingError(.destinationExists, "'\(target)' already exists")
    }
    do {
      // Flushing is `prepare(top:flush:)`'s business (or not wanted: --no-sync).
      try FileTree.move(source.path, to: target, replacing: exists, durable: false)
    } catch .targetExists {
      throw PackagingError(.destinationExists, "'\(target)' already exists")
    } catch .failed(let cause) {
      throw moveFailure(source, cause.errno)
    }
    finished = true
    if let topPermissions { chmod(target, mode_t(topPermissions)) }
    if source == url, let rootAttributes {
      chmod(target, mode_t(rootAttributes.permissions))
      if let time = rootAttributes.time { _ = Self.setTime(time, path: target) }
    } else if source == url {
      chmod(target, 0o755)
    }
    if let flusher {
      // The move and the final mode: the destination and the folder holding it.
      for folder in [target, destination.deletingLastPathComponent().path] {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
          flusher.flushAndClose(descriptor, isFolder: true, name: "'\(folder)'")
        }
      }
      try? flusher.waitForAll()
    }
    FileTree.remove(atPath: url.path)
  }

  /// Removes the staging folder and everything in it.
  func discard() {
    closeDirectories()
    finished = true
    FileTree.remove(atPath: url.path)
  }

  // MARK: Helpers

  /// The descriptor of a folder below the root, creating it (owner-only) when missing.
  private func directory(_ components: ArraySlice<String>) throws -> Int32 {
    if components.isEmpty { return root }
    let key = components.joined(separator: "/")
    if let cached = directoryCache[key] { return cached }
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
    return descriptor
  }

  private func closeDirectories() {
    for descriptor in directoryCache.values { close(descriptor) }
    directoryCache.removeAll(keepingCapacity: true)
  }

  private func setTime(_ time: Time, parent: Int32, name: String, path: RelativePath) throws {
    var times = [Self.timespecOf(time), Self.timespecOf(time)]
    guard utimensat(parent, name, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
      throw failure("cannot set the time of", path)
    }
  }

  private static func setTime(_ time: Time, path: String) -> Bool {
    var times = [timespecOf(time), timespecOf(time)]
    return utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0
  }

  static func timespecOf(_ time: Time) -> timespec {
    timespec(tv_sec: Int(time.seconds), tv_nsec: time.nanoseconds)
  }

  private func failure(_ action: String, _ path: RelativePath) -> PackagingError {
    PackagingError(
      .destinationWriteFailed, "\(action) \(EntryName(path.string).display)",
      cause: SystemError(errno: errno))
  }

  private func moveFailure(_ source: URL, _ code: Int32) -> PackagingError {
    PackagingError(
      .destinationWriteFailed, "cannot move '\(source.path)' to '\(destination.path)'",
      cause: SystemError(errno: code))
  }

  /// Whether two files hold the same bytes.
  ///
  /// - Throws: ``PackagingError`` naming the file that cannot be read.
  private static func sameBytes(_ first: String, _ second: String) throws -> Bool {
    let one = SystemCall.retryingInterrupts { open(first, O_RDONLY | O_CLOEXEC) }
    guard one >= 0 else { return false }
    defer { close(one) }
    let two = SystemCall.retryingInterrupts { open(second, O_RDONLY | O_CLOEXEC) }
    guard two >= 0 else { return false }
    defer { close(two) }
    let chunk = 1 << 16
    var left = [UInt8](repeating: 0, count: chunk)
    var right = [UInt8](repeating: 0, count: chunk)
    while true {
      let leftCount = try readFully(one, into: &left, path: first)
      let rightCount = try readFully(two, into: &right, path: second)
      if leftCount != rightCount || left[0..<leftCount] != right[0..<rightCount] { return false }
      if leftCount == 0 { return true }
    }
  }

  /// Fills `buffer` from a descriptor (less only at the end of the file).
  private static func readFully(_ descriptor: Int32, into buffer: inout [UInt8], path: String)
    throws -> Int
  {
    var filled = 0
    while filled < buffer.count {
      let count = buffer.withUnsafeMutableBytes { raw in
        SystemCall.retryingInterrupts {
          Glibc.read(descriptor, raw.baseAddress! + filled, raw.count - filled)
        }
      }
      if count < 0 {
        throw PackagingError(
          .destinationWriteFailed, "cannot read '\(path)' to compare it with the archive's copy",
          cause: SystemError(errno: errno))
      }
      if count == 0 { break }
      filled += count
    }
    return filled
  }
}

/// A regular file being written by an expansion, through its own descriptor.
final class OutputFile {
  /// The file below the staging root.
  let path: RelativePath
  private var descriptor: Int32
  private unowned let staging: StagingFolder
  /// The logical size so far (the end of the furthest write or hole).
  private(set) var size: Int64 = 0
  private var position: Int64 = 0

  fileprivate init(descriptor: Int32, path: RelativePath, staging: StagingFolder) {
    self.descriptor = descriptor
    self.path = path
    self.staging = staging
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Writes bytes at `offset` (past the current end leaves a hole, as sparse tar entries do).
  ///
  /// - Parameters:
  ///   - bytes: The data.
  ///   - offset: Where in the file it goes.
  /// - Throws: ``PackagingError`` naming the file.
  func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
    if offset != position {
      guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { throw failure("cannot seek in") }
      position = offset
    }
    var done = 0
    while done < bytes.count {
      let written = SystemCall.retryingInterrupts {
        Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
      }
      if written < 0 { throw failure("cannot write") }
      done += written
    }
    position += Int64(bytes.count)
    size = max(size, position)
  }

  /// Extends the file to `length` with a hole (a sparse entry's trailing hole).
  ///
  /// - Parameter length: The logical length, already counted against the budget.
  /// - Throws: ``PackagingError`` naming the file.
  func extend(to length: Int64) throws {
    guard length > size else { return }
    guard ftruncate(descriptor, off_t(length)) == 0 else { throw failure("cannot extend") }
    size = length
  }

  /// Sets the final mode and time and closes the file.
  ///
  /// - Parameters:
  ///   - permissions: The permission bits.
  ///   - time: The modification time, if stored.
  /// - Throws: ``PackagingError`` naming the file.
  func finish(permissions: UInt32, time: StagingFolder.Time?) throws {
    var handedOver = false
    defer {
      if !handedOver { close(descriptor) }
      descriptor = -1
    }
    guard fchmod(descriptor, mode_t(permissions)) == 0 else {
      throw failure("cannot set the mode of")
    }
    if let time {
      var times = [StagingFolder.timespecOf(time), StagingFolder.timespecOf(time)]
      guard futimens(descriptor, &times) == 0 else { throw failure("cannot set the time of") }
    }
    staging.recordFile(path, size: size)
    if let flusher = staging.flusher {
      flusher.flushAndClose(descriptor, name: EntryName(path.string).display)
      handedOver = true
    }
  }

  private func failure(_ action: String) -> PackagingError {
    PackagingError(
      .destinationWriteFailed, "\(action) '\(path.string)'", cause: SystemError(errno: errno))
  }
}
