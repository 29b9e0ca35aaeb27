public import FoundationEssentials
import Glibc
import ProgressReporting

/// Adds entries to an archive being written; only ``withArchiveWriter(at:format:options:progress:_:)``
/// makes one.
///
/// Zip archives are written by Folio's own writer: file entries are read and
/// compressed by ``ArchiveWriterOptions/jobs`` threads in parallel, in
/// bounded buffers, and written in the order they were added, so the archive
/// is the same whatever the number of jobs. Tar archives go through libarchive
/// on the caller's thread, in ``chunkSize`` chunks; with several jobs, other
/// threads read small files ahead of it. Memory stays flat whatever the file
/// sizes.
///
/// Each entry reports to the writer's progress: every byte of file data
/// completes one unit and every entry one more, so a reporter started with
/// `bytes + entries` units fills exactly. Regular files also count in the
/// progress's file and byte counts. With several jobs an entry reports when
/// it is written out, shortly after it was added.
///
/// A writer is not `Sendable`: use it from the closure it was given to, and
/// not after that closure returns.
public final class ArchiveWriter {
  /// The size of the chunks tar file data is read and written in.
  public static let chunkSize = 64 * 1024

  /// The format being written.
  public let format: ArchiveFormat
  /// The options the archive was opened with.
  public let options: ArchiveWriterOptions
  /// The entries added so far.
  public private(set) var entryCount = 0
  /// The bytes of file data added so far (before compression).
  public private(set) var dataByteCount: Int64 = 0
  /// The zip file entries stored rather than deflated, among those written out
  /// so far (all of them once the archive is finished).
  public var storedEntryCount: Int {
    if case .zip(let zip) = backend { return zip.storedEntryCount }
    return 0
  }

  let progress: ProgressManager?
  let backend: Backend
  /// An earlier zip whose unchanged entries are copied instead of compressed again.
  package var reuse: ZipReuseIndex? {
    didSet {
      if case .zip(let zip) = backend { zip.earlierArchive = reuse?.archive }
    }
  }

  /// Lets go of the earlier archive once the new one is in place (and, when it is the
  /// archive replaced, of its last reference): on a thread of its own with more than one
  /// job, since closing a replaced file has the kernel free its blocks, which waits for the
  /// device, while the rest of the work and of the process ends.
  func releaseEarlierArchive() {
    guard let earlier = reuse else { return }
    reuse = nil
    if options.resolvedJobs > 1 { DetachedRelease.release(earlier) }
  }

  private var isOpen = true

  /// Who writes the entries.
  enum Backend {
    case zip(ZipEntryWriter)
    case tar(TarEntryWriter)
  }

  /// The ownership and times of one entry, as the file system reports them.
  struct Metadata {
    var permissions: mode_t
    var modificationTime: timespec
    var userID: uid_t
    var groupID: gid_t
    /// The extended attributes and ACLs to store; empty for most entries.
    var extendedAttributes: [ExtendedAttribute] = []

    init(_ info: stat) {
      permissions = info.st_mode & 0o7777
      modificationTime = info.st_mtim
      userID = info.st_uid
      groupID = info.st_gid
    }

    init(_ attributes: ArchiveEntryAttributes) {
      permissions = mode_t(attributes.permissions & 0o7777)
      modificationTime = attributes.timespec
      userID = getuid()
      groupID = getgid()
    }
  }

  init(
    format: ArchiveFormat, backend: Backend, options: ArchiveWriterOptions,
    progress: ProgressManager?
  ) {
    self.format = format
    self.backend = backend
    self.options = options
    self.progress = progress
  }

  func close() {
    isOpen = false
  }

  // MARK: Public entries

  /// Adds a folder entry.
  ///
  /// - Parameters:
  ///   - path: The entry's path inside the archive (`Notebook/pages`), relative, `/`-separated.
  ///   - attributes: Its permissions and modification time.
  /// - Throws: ``PackagingError`` for an unusable path or a write failure.
  public func addDirectory(
    _ path: String, attributes: ArchiveEntryAttributes = .init(permissions: 0o755)
  ) throws {
    try validate(path)
    try writeDirectory(path: path, metadata: Metadata(attributes))
  }

  /// Adds a regular file from memory.
  ///
  /// - Parameters:
  ///   - path: The entry's path inside the archive.
  ///   - data: The file's bytes.
  ///   - attributes: Its permissions and modification time.
  ///   - compression: Overrides the writer's zip compression for this entry.
  /// - Throws: ``PackagingError`` for an unusable path or a write failure.
  public func addFile(
    _ path: String, data: Data, attributes: ArchiveEntryAttributes = .init(),
    compression: EntryCompression? = nil
  ) throws {
    try validate(path)
    try checkCancellation()
    if case .zip = backend, reuse != nil {
      // Through the path that may copy an earlier archive's entry.
      try writeFile(
        path: path, source: .memory(data), size: Int64(data.count),
        metadata: Metadata(attributes), compression: compression)
      return
    }
    let metadata = recorded(Metadata(attributes))
    switch backend {
    case .zip(let zip):
      try zip.addFile(
        path: path, source: .memory(data), size: Int64(data.count),
        permissions: UInt32(metadata.permissions),
        modificationTime: Int64(metadata.modificationTime.tv_sec), compression: compression)
    case .tar(let tar):
      try tar.writeFile(path: path, data: data, metadata: metadata)
    }
    counted(bytes: Int64(data.count))
  }

  /// Adds a regular file, streaming its contents from disk.
  ///
  /// A symbolic link at `url` is not followed: it is refused, as is anything
  /// other than a regular file.
  ///
  /// - Parameters:
  ///   - path: The entry's path inside the archive.
  ///   - url: The file to read.
  ///   - attributes: Permissions and time to record instead of the file's own.
  ///   - compression: Overrides the writer's zip compression for this entry.
  /// - Throws: ``PackagingError`` when the file cannot be read or changes
  ///   while being written, or the write fails.
  public func addFile(
    _ path: String, contentsOf url: URL, attributes: ArchiveEntryAttributes? = nil,
    compression: EntryCompression? = nil
  ) throws {
    try validate(path)
    var info = stat()
    guard lstat(url.path, &info) == 0 else {
      throw PackagingError.system("cannot open '\(url.path)'", errno: errno)
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw PackagingError(.unsupportedFileType, "'\(url.path)' is not a regular file")
    }
    var metadata = Metadata(info)
    if let attributes {
      metadata.permissions = mode_t(attributes.permissions & 0o7777)
      metadata.modificationTime = attributes.timespec
    }
    let source = ZipFileSource.file(
      folder: AT_FDCWD, path: url.path, folderPath: nil, expected: .init(info))
    try writeFile(
      path: path, source: source, size: Int64(info.st_size), metadata: metadata,
      compression: compression)
  }

  /// Adds a symbolic link entry; the target is stored as given, never followed.
  ///
  /// - Parameters:
  ///   - path: The entry's path inside the archive.
  ///   - target: The link's target, relative to the link's folder.
  ///   - attributes: Its modification time (link permissions are `0o755`).
  /// - Throws: ``PackagingError`` for an unusable path or a write failure.
  public func addSymbolicLink(
    _ path: String, target: String, attributes: ArchiveEntryAttributes = .init(permissions: 0o755)
  ) throws {
    try validate(path)
    try writeSymbolicLink(path: path, target: target, metadata: Metadata(attributes))
  }

  // MARK: Core

  func writeDirectory(path: String, metadata: Metadata) throws {
    try checkCancellation()
    let metadata = recorded(metadata)
    switch backend {
    case .zip(let zip):
      try zip.addDirectory(
        path: path, permissions: UInt32(metadata.permissions),
        modificationTime: Int64(metadata.modificationTime.tv_sec))
    case .tar(let tar):
      try tar.writeDirectory(path: path, metadata: metadata)
    }
    counted(bytes: 0)
  }

  func writeSymbolicLink(path: String, target: String, metadata: Metadata) throws {
    try checkCancellation()
    let metadata = recorded(metadata)
    switch backend {
    case .zip(let zip):
      try zip.addSymbolicLink(
        path: path, target: target, permissions: UInt32(metadata.permissions),
        modificationTime: Int64(metadata.modificationTime.tv_sec))
    case .tar(let tar):
      try tar.writeSymbolicLink(path: path, target: target, metadata: metadata)
    }
    counted(bytes: 0)
  }

  /// Writes a tar hard link entry naming an entry written earlier.
  func writeHardLink(path: String, target: String, metadata: Metadata) throws {
    guard case .tar(let tar) = backend else {
      preconditionFailure("zip stores a hard link's every name as a file")
    }
    try checkCancellation()
    try tar.writeHardLink(path: path, target: target, metadata: recorded(metadata))
    counted(bytes: 0)
  }

  /// Writes a regular file as a listing saw it.
  ///
  /// The file is opened when its data is read (by a worker, for zip) and
  /// checked to be the same file, of the same size, as listed.
  ///
  /// - Parameters:
  ///   - path: The entry's path inside the archive.
  ///   - source: The file and its listed identity: made only when the file is read (an
  ///     update reuses most entries without, where making it retained two strings each).
  ///   - size: Its listed size: the entry's.
  ///   - metadata: What to record.
  ///   - compression: Overrides the writer's zip compression for this entry.
  func writeFile(
    path: String, source: @autoclosure () -> ZipFileSource, size: Int64, metadata: Metadata,
    compression: EntryCompression? = nil
  ) throws {
    try checkOpen()
    let metadata = recorded(metadata)
    switch backend {
    case .zip(let zip):
      // The zip writer checks for cancellation itself: at each entry it reads, and once a
      // batch for the rest (reused ones, which cost less than a check each).
      let (permissions, time) = (
        UInt32(metadata.permissions), Int64(metadata.modificationTime.tv_sec)
      )
      if let reuse,
        let data = try reuse.reusableData(
          path: path, size: size, permissions: permissions, modificationTime: time,
          source: source())
      {
        try zip.addReusedFile(
          path: path, data: data, size: size, permissions: permissions, modificationTime: time)
      } else {
        try zip.addFile(
          path: path, source: source(), size: size, permissions: permissions,
          modificationTime: time, compression: compression)
      }
    case .tar(let tar):
      try checkCancellation()
      try tar.writeFile(path: path, source: source(), size: size, metadata: metadata)
    }
    counted(bytes: size)
  }

  /// Writes out every entry added so far (zip compresses, and tar reads, ahead of writing).
  func flush() throws {
    switch backend {
    case .zip(let zip): try zip.flush()
    case .tar(let tar): try tar.flush()
    }
  }

  // MARK: Helpers

  /// The metadata as recorded: reproducible archives get whole seconds,
  /// clamped to the source date epoch.
  private func recorded(_ metadata: Metadata) -> Metadata {
    guard options.reproducible else { return metadata }
    var metadata = metadata
    metadata.modificationTime.tv_nsec = 0
    if let epoch = options.sourceDateEpoch, Int64(metadata.modificationTime.tv_sec) > epoch {
      metadata.modificationTime.tv_sec = Int(epoch)
    }
    return metadata
  }

  private func counted(bytes: Int64) {
    entryCount += 1
    dataByteCount += bytes
  }

  private func checkCancellation() throws {
    try checkOpen()
    try ProgressManager.checkCancellation(of: progress)
  }

  private func checkOpen() throws {
    guard isOpen else {
      throw PackagingError(
        .invalidEntry, "cannot add an entry: the archive writer was already closed")
    }
  }

  private func validate(_ path: String) throws {
    let components = path.split(separator: "/", omittingEmptySubsequences: false)
    if path.isEmpty || path.hasPrefix("/") || path.contains("\0")
      || components.contains(where: { $0 == ".." || $0 == "." })
    {
      throw PackagingError(
        .invalidEntry,
        "cannot add '\(path)': entry paths are relative, without '.', '..' or NUL")
    }
    guard isOpen else {
      throw PackagingError(
        .invalidEntry, "cannot add '\(path)': the archive writer was already closed")
    }
  }
}

extension ZipFileSource.FileIdentity {
  /// The identity of a file as `stat` describes it.
  init(_ info: stat) {
    self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size))
  }
}
