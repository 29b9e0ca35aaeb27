import FolioSystem
import FoundationEssentials
import Glibc

/// Where a zip entry's file data comes from.
///
/// Small files are opened and read by the worker that compresses them; a
/// large one is opened once by the producer (``ZipStreamedFile``) and read
/// chunk by chunk by several workers.
enum ZipFileSource: Sendable {
  /// A file named relative to an open folder (`AT_FDCWD` for a path): opened
  /// without following a final symbolic link, and checked against the inode
  /// and size seen when it was listed, if given. `folderPath` names the folder in
  /// messages (`nil`: `path` alone names the file), spelled out only for one.
  case file(folder: Int32, path: String, folderPath: String?, expected: FileIdentity?)
  /// Bytes in memory.
  case memory(Data)

  /// A file as a listing saw it: which inode, and how large.
  struct FileIdentity: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
  }

  /// The path for messages.
  var displayPath: String {
    switch self {
    case .file(_, let path, let folderPath, _):
      folderPath.map { PackageWalker.join($0, path) } ?? path
    case .memory: "(data in memory)"
    }
  }

  /// Opens the file and checks it is the regular file that was listed.
  ///
  /// - Returns: The descriptor and its attributes.
  /// - Throws: ``PackagingError`` (`file-system`, `unsupported-file-type`, `file-changed`).
  func open() throws -> (descriptor: Int32, info: stat) {
    guard case .file(let folder, let path, _, let expected) = self else {
      preconditionFailure("only files are opened")
    }
    let descriptor = SystemCall.retryingInterrupts {
      openat(folder, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    }
    guard descriptor >= 0 else {
      let code = errno
      // Shortened in the middle: a path past the system's limit is thousands of bytes long.
      throw PackagingError.system("cannot open \(EntryName(displayPath).display)", errno: code)
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let code = errno
      close(descriptor)
      throw PackagingError.system("cannot read the attributes of '\(displayPath)'", errno: code)
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      close(descriptor)
      if expected != nil {
        throw PackagingError(
          .fileChanged, "'\(displayPath)' changed while the package was being packed")
      }
      throw PackagingError(.unsupportedFileType, "'\(displayPath)' is not a regular file")
    }
    if let expected,
      UInt64(info.st_dev) != expected.device || UInt64(info.st_ino) != expected.inode
        || Int64(info.st_size) != expected.size
    {
      close(descriptor)
      throw PackagingError(
        .fileChanged, "'\(displayPath)' changed while the package was being packed")
    }
    return (descriptor, info)
  }

  /// Copies the whole source into `target`, which holds exactly its size: a
  /// file is opened, read, checked unchanged and closed.
  ///
  /// - Parameter target: Where the bytes go.
  /// - Throws: ``PackagingError`` as ``open()``, ``read(_:into:at:size:displayPath:)``
  ///   and ``checkUnchanged(_:since:displayPath:)`` do.
  func readWhole(into target: UnsafeMutableRawBufferPointer) throws {
    switch self {
    case .memory(let data):
      data.withUnsafeBytes {
        target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(target.count)))
      }
    case .file:
      let (descriptor, info) = try open()
      defer { close(descriptor) }
      try Self.read(
        descriptor, into: target, at: 0, size: Int64(target.count), displayPath: displayPath)
      try Self.checkUnchanged(descriptor, since: info, displayPath: displayPath)
    }
  }

  /// Reads exactly `count` bytes at `offset`.
  ///
  /// - Parameters:
  ///   - descriptor: The open file.
  ///   - target: Where the bytes go (`count` bytes).
  ///   - offset: Where in the file to start.
  ///   - size: The file's size when opened, for the message when it shrank.
  ///   - displayPath: The file, for messages.
  /// - Throws: ``PackagingError`` (`file-system`, or `file-changed` when the file ends early).
  static func read(
    _ descriptor: Int32, into target: UnsafeMutableRawBufferPointer, at offset: Int64,
    size: Int64, displayPath: String
  ) throws {
    var filled = 0
    while filled < target.count {
      let count = SystemCall.retryingInterrupts {
        pread(
          descriptor, target.baseAddress! + filled, target.count - filled,
          off_t(offset) + off_t(filled))
      }
      if count < 0 {
        throw PackagingError.system("cannot read '\(displayPath)'", errno: errno)
      }
      if count == 0 {
        throw PackagingError(
          .fileChanged,
          "'\(displayPath)' shrank while it was being packed (\(offset + Int64(filled)) of \(size) bytes read)"
        )
      }
      filled += count
    }
  }

  /// Fails when a file's size or modification time moved since `before`.
  ///
  /// - Parameters:
  ///   - descriptor: The open file.
  ///   - before: Its attributes when opened.
  ///   - displayPath: The file, for messages.
  /// - Throws: ``PackagingErrorDomain/Code/fileChanged``.
  static func checkUnchanged(_ descriptor: Int32, since before: stat, displayPath: String) throws {
    var after = stat()
    guard fstat(descriptor, &after) == 0 else { return }
    if after.st_size != before.st_size || after.st_mtim.tv_sec != before.st_mtim.tv_sec
      || after.st_mtim.tv_nsec != before.st_mtim.tv_nsec
    {
      throw PackagingError(
        .fileChanged, "'\(displayPath)' was written to while it was being packed")
    }
  }
}

/// A large file being written as one entry in chunks, shared by the chunks'
/// workers; its descriptor closes when the last chunk lets go of it.
final class ZipStreamedFile: Sendable {
  /// The open file, or -1 for bytes in memory.
  let descriptor: Int32
  /// The bytes, for an entry added from memory.
  let data: Data?
  /// Its size when opened: exactly this many bytes are written.
  let size: Int64
  /// Its attributes when opened, to notice a write during packing.
  let openedInfo: stat?
  /// The path, for messages.
  let displayPath: String
  /// Whether the entry is stored rather than deflated.
  let storing: Bool

  init(
    descriptor: Int32, data: Data?, size: Int64, openedInfo: stat?, displayPath: String,
    storing: Bool
  ) {
    self.descriptor = descriptor
    self.data = data
    self.size = size
    self.openedInfo = openedInfo
    self.displayPath = displayPath
    self.storing = storing
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Copies `target.count` bytes at `offset` into `target`.
  ///
  /// - Throws: ``PackagingError`` when the file cannot be read or ends early.
  func read(into target: UnsafeMutableRawBufferPointer, at offset: Int64) throws {
    if let data {
      data.withUnsafeBytes { bytes in
        target.copyMemory(
          from: UnsafeRawBufferPointer(rebasing: bytes[Int(offset)..<(Int(offset) + target.count)]))
      }
      return
    }
    try ZipFileSource.read(
      descriptor, into: target, at: offset, size: size, displayPath: displayPath)
  }
}
