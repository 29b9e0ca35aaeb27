import FolioSystem
import Foundation

/// Adds entries to an archive being written; only ``withArchiveWriter(at:format:options:progress:_:)``
/// makes one.
///
/// File data is streamed in ``chunkSize`` chunks through one buffer, so
/// memory stays flat whatever the file sizes. Each entry reports to the
/// writer's progress: every byte of file data completes one unit and every
/// entry one more, so a reporter started with `bytes + entries` units fills
/// exactly. Regular files also count in the progress's file and byte counts.
///
/// A writer is not `Sendable`: use it from the closure it was given to, and
/// not after that closure returns.
public final class ArchiveWriter {
  /// The size of the chunks file data is read and written in.
  public static let chunkSize = 64 * 1024

  /// The format being written.
  public let format: ArchiveFormat
  /// The options the archive was opened with.
  public let options: ArchiveWriterOptions
  /// The entries written so far.
  public private(set) var entryCount = 0
  /// The zip entries written stored rather than deflated.
  public private(set) var storedEntryCount = 0
  /// The bytes of file data written so far (before compression).
  public private(set) var dataByteCount: Int64 = 0

  let handle: ArchiveWriteHandle
  let progress: ProgressManager?
  private let entry: ArchiveEntryHandle
  private let bufferStart: UnsafeMutableRawPointer
  private let buffer: UnsafeMutableRawBufferPointer
  private let probe: CompressibilityProbe
  private var isOpen = true
  private var ownerNames: [uid_t: String?] = [:]
  private var groupNames: [gid_t: String?] = [:]

  /// The ownership and times of one entry, as the file system reports them.
  struct Metadata {
    var permissions: mode_t
    var modificationTime: timespec
    var userID: uid_t
    var groupID: gid_t

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

  init(handle: ArchiveWriteHandle, options: ArchiveWriterOptions, progress: ProgressManager?)
    throws
  {
    self.handle = handle
    self.format = handle.format
    self.options = options
    self.progress = progress
    entry = try ArchiveEntryHandle()
    probe = CompressibilityProbe(registry: options.typeRegistry)
    bufferStart = UnsafeMutableRawPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
    buffer = UnsafeMutableRawBufferPointer(start: bufferStart, count: Self.chunkSize)
  }

  deinit {
    bufferStart.deallocate()
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
    progress?.startFile(path, size: Int64(data.count))
    let storing: Bool
    if format == .zip {
      storing = data.withUnsafeBytes { bytes in
        decideStoring(
          path: path, size: Int64(bytes.count),
          firstChunk: UnsafeRawBufferPointer(rebasing: bytes.prefix(Self.chunkSize)),
          compression: compression, descriptor: nil)
      }
    } else {
      storing = false
    }
    try prepareEntry(path: path, type: .regular, metadata: Metadata(attributes))
    entry.size = Int64(data.count)
    try handle.setZipStoring(storing)
    try handle.writeHeader(entry)
    var offset = 0
    while offset < data.count {
      try checkCancellation()
      let end = min(offset + Self.chunkSize, data.count)
      try data[offset..<end].withUnsafeBytes { try handle.writeData($0, name: path) }
      report(bytes: end - offset)
      offset = end
    }
    try finishFile(path: path, stored: storing)
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
    let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw PackagingError.system("cannot open '\(url.path)'", errno: errno)
    }
    defer { Glibc.close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw PackagingError.system("cannot read the attributes of '\(url.path)'", errno: errno)
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw PackagingError(.unsupportedFileType, "'\(url.path)' is not a regular file")
    }
    var metadata = Metadata(info)
    if let attributes {
      metadata.permissions = mode_t(attributes.permissions & 0o7777)
      metadata.modificationTime = attributes.timespec
    }
    try writeRegularFile(
      path: path, descriptor: descriptor, size: Int64(info.st_size), metadata: metadata,
      sourcePath: url.path, compression: compression)
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
    try prepareEntry(path: path, type: .directory, metadata: metadata)
    try handle.writeHeader(entry)
    try handle.finishEntry(name: path)
    entryCount += 1
    progress?.complete(count: 1)
  }

  func writeSymbolicLink(path: String, target: String, metadata: Metadata) throws {
    try checkCancellation()
    try prepareEntry(path: path, type: .symbolicLink, metadata: metadata)
    entry.symlinkTarget = target
    try handle.writeHeader(entry)
    try handle.finishEntry(name: path)
    entryCount += 1
    progress?.complete(count: 1)
  }

  /// Writes a tar hard link entry naming an entry written earlier.
  func writeHardLink(path: String, target: String, metadata: Metadata) throws {
    try checkCancellation()
    progress?.startFile(path, size: 0)
    try prepareEntry(path: path, type: .regular, metadata: metadata)
    entry.hardlinkTarget = target
    entry.size = 0
    try handle.writeHeader(entry)
    try handle.finishEntry(name: path)
    entryCount += 1
    progress?.completeFile(path)
    progress?.complete(count: 1)
  }

  /// Streams an open regular file into a new entry.
  ///
  /// The header records `size`; exactly that many bytes are written. A file
  /// that turns out shorter, or that was written to while it was read (its
  /// size or modification time moved), fails with
  /// ``PackagingError/Code/fileChanged``.
  func writeRegularFile(
    path: String, descriptor: Int32, size: Int64, metadata: Metadata, sourcePath: String,
    compression: EntryCompression? = nil
  ) throws {
    try checkCancellation()
    var before = stat()
    let watched = fstat(descriptor, &before) == 0
    progress?.startFile(path, size: size)
    if size > Int64(Self.chunkSize) {
      _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
    }
    var pending = try readChunk(descriptor, limit: size, sourcePath: sourcePath)
    let storing =
      format == .zip
      && decideStoring(
        path: path, size: size,
        firstChunk: UnsafeRawBufferPointer(rebasing: buffer[0..<pending]),
        compression: compression, descriptor: descriptor)
    try prepareEntry(path: path, type: .regular, metadata: metadata)
    entry.size = size
    try handle.setZipStoring(storing)
    try handle.writeHeader(entry)
    var written: Int64 = 0
    while true {
      if pending > 0 {
        try handle.writeData(UnsafeRawBufferPointer(rebasing: buffer[0..<pending]), name: path)
        written += Int64(pending)
        report(bytes: pending)
      }
      if written >= size { break }
      try checkCancellation()
      pending = try readChunk(descriptor, limit: size - written, sourcePath: sourcePath)
      if pending == 0 {
        throw PackagingError(
          .fileChanged,
          "'\(sourcePath)' shrank while it was being packed (\(written) of \(size) bytes read)")
      }
    }
    var after = stat()
    if watched, fstat(descriptor, &after) == 0,
      after.st_size != before.st_size || after.st_mtim.tv_sec != before.st_mtim.tv_sec
        || after.st_mtim.tv_nsec != before.st_mtim.tv_nsec
    {
      throw PackagingError(
        .fileChanged, "'\(sourcePath)' was written to while it was being packed")
    }
    try finishFile(path: path, stored: storing)
  }

  // MARK: Helpers

  private func readChunk(_ descriptor: Int32, limit: Int64, sourcePath: String) throws -> Int {
    let wanted = Int(min(Int64(Self.chunkSize), max(0, limit)))
    var filled = 0
    while filled < wanted {
      let count = SystemCall.retryingInterrupts {
        read(descriptor, bufferStart + filled, wanted - filled)
      }
      if count < 0 {
        throw PackagingError.system("cannot read '\(sourcePath)'", errno: errno)
      }
      if count == 0 { break }
      filled += count
    }
    return filled
  }

  private func report(bytes: Int) {
    dataByteCount += Int64(bytes)
    guard let progress else { return }
    progress.completedByteCount += UInt64(bytes)
    progress.complete(count: bytes)
  }

  private func finishFile(path: String, stored: Bool) throws {
    try handle.finishEntry(name: path)
    entryCount += 1
    if stored { storedEntryCount += 1 }
    progress?.completeFile(path)
    progress?.complete(count: 1)
  }

  private func decideStoring(
    path: String, size: Int64, firstChunk: UnsafeRawBufferPointer,
    compression: EntryCompression?, descriptor: Int32?
  ) -> Bool {
    switch compression ?? options.compression {
    case .store: return true
    case .deflate: return false
    case .automatic: break
    }
    if options.compressionLevel == 0 { return true }
    if size < Int64(CompressibilityProbe.smallestDeflatedSize) { return true }
    let name = path.split(separator: "/").last.map(String.init) ?? path
    if probe.isAlreadyCompressed(fileName: name) { return true }
    guard size >= Int64(CompressibilityProbe.smallestSampledSize) else { return false }
    guard probe.looksIncompressible(firstChunk) else { return false }
    if let descriptor, size > Int64(Self.chunkSize) * 4 {
      return probe.laterSamplesLookIncompressible(descriptor: descriptor, size: size)
    }
    return true
  }

  private func prepareEntry(path: String, type: ArchiveEntryHandle.FileType, metadata: Metadata)
    throws
  {
    guard isOpen else {
      throw PackagingError(
        .invalidEntry, "cannot add '\(path)': the archive writer was already closed")
    }
    entry.clear()
    entry.pathname = path
    entry.fileType = type
    entry.permissions = metadata.permissions
    var time = metadata.modificationTime
    if options.reproducible {
      time.tv_nsec = 0
      if let epoch = options.sourceDateEpoch, Int64(time.tv_sec) > epoch {
        time.tv_sec = Int(epoch)
      }
      entry.userID = 0
      entry.groupID = 0
    } else {
      entry.userID = Int64(metadata.userID)
      entry.groupID = Int64(metadata.groupID)
      if let name = ownerName(metadata.userID) { entry.userName = name }
      if let name = groupName(metadata.groupID) { entry.groupName = name }
    }
    entry.modificationTime = time
  }

  private func checkCancellation() throws {
    if let progress {
      try progress.checkCancellation()
    } else if Task.isCancelled {
      throw CancellationError()
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
  }

  private func ownerName(_ id: uid_t) -> String? {
    if let cached = ownerNames[id] { return cached }
    var record = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var scratch = [CChar](repeating: 0, count: 1024)
    var name: String?
    if getpwuid_r(id, &record, &scratch, scratch.count, &result) == 0, let result {
      name = String(cString: result.pointee.pw_name)
    }
    ownerNames[id] = name
    return name
  }

  private func groupName(_ id: gid_t) -> String? {
    if let cached = groupNames[id] { return cached }
    var record = group()
    var result: UnsafeMutablePointer<group>?
    var scratch = [CChar](repeating: 0, count: 1024)
    var name: String?
    if getgrgid_r(id, &record, &scratch, scratch.count, &result) == 0, let result {
      name = String(cString: result.pointee.gr_name)
    }
    groupNames[id] = name
    return name
  }
}
