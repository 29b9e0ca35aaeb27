import Foundation

/// Writes tar entries (plain or compressed) through libarchive, one after
/// another on the caller's thread, streaming file data in
/// ``ArchiveWriter/chunkSize`` chunks through one buffer.
final class TarEntryWriter {
  let handle: ArchiveWriteHandle
  private let options: ArchiveWriterOptions
  private let progress: ProgressManager?
  private let entry: ArchiveEntryHandle
  private let buffer: UnsafeMutableRawBufferPointer
  private var ownerNames: [uid_t: String?] = [:]
  private var groupNames: [gid_t: String?] = [:]

  /// The entries written so far.
  private(set) var entryCount = 0
  /// The bytes of file data written so far.
  private(set) var dataByteCount: Int64 = 0

  init(handle: ArchiveWriteHandle, options: ArchiveWriterOptions, progress: ProgressManager?)
    throws
  {
    self.handle = handle
    self.options = options
    self.progress = progress
    entry = try ArchiveEntryHandle()
    buffer = .allocate(byteCount: ArchiveWriter.chunkSize, alignment: 16)
  }

  deinit { buffer.deallocate() }

  func writeDirectory(path: String, metadata: ArchiveWriter.Metadata) throws {
    try prepareEntry(path: path, type: .directory, metadata: metadata)
    try handle.writeHeader(entry)
    try handle.finishEntry(name: path)
    completeEntry()
  }

  func writeSymbolicLink(path: String, target: String, metadata: ArchiveWriter.Metadata) throws {
    try prepareEntry(path: path, type: .symbolicLink, metadata: metadata)
    entry.symlinkTarget = target
    try handle.writeHeader(entry)
    try handle.finishEntry(name: path)
    completeEntry()
  }

  /// Writes a hard link entry naming an entry written earlier.
  func writeHardLink(path: String, target: String, metadata: ArchiveWriter.Metadata) throws {
    progress?.startFile(path, size: 0)
    try prepareEntry(path: path, type: .regular, metadata: metadata)
    entry.hardlinkTarget = target
    entry.size = 0
    try handle.writeHeader(entry)
    try handle.finishEntry(name: path)
    progress?.completeFile(path)
    completeEntry()
  }

  /// Writes a regular file from memory.
  func writeFile(path: String, data: Data, metadata: ArchiveWriter.Metadata) throws {
    progress?.startFile(path, size: Int64(data.count))
    try prepareEntry(path: path, type: .regular, metadata: metadata)
    entry.size = Int64(data.count)
    try handle.writeHeader(entry)
    var offset = 0
    while offset < data.count {
      try checkCancellation()
      let end = min(offset + ArchiveWriter.chunkSize, data.count)
      try data[offset..<end].withUnsafeBytes { try handle.writeData($0, name: path) }
      report(bytes: end - offset)
      offset = end
    }
    try finishFile(path: path)
  }

  /// Streams an open regular file into a new entry.
  ///
  /// The header records `size`; exactly that many bytes are written. A file
  /// that turns out shorter, or that was written to while it was read (its
  /// size or modification time moved), fails with
  /// ``PackagingError/Code/fileChanged``. `opened` is the file's status when it was opened
  /// (taken then, so it is not asked for twice).
  func writeFile(
    path: String, descriptor: Int32, opened before: stat, size: Int64,
    metadata: ArchiveWriter.Metadata, sourcePath: String
  ) throws {
    progress?.startFile(path, size: size)
    if size > Int64(ArchiveWriter.chunkSize) {
      _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
    }
    try prepareEntry(path: path, type: .regular, metadata: metadata)
    entry.size = size
    try handle.writeHeader(entry)
    var written: Int64 = 0
    while written < size {
      try checkCancellation()
      let count = Int(min(Int64(buffer.count), size - written))
      let chunk = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
      try ZipFileSource.read(
        descriptor, into: chunk, at: written, size: size, displayPath: sourcePath)
      try handle.writeData(UnsafeRawBufferPointer(chunk), name: path)
      written += Int64(count)
      report(bytes: count)
    }
    try ZipFileSource.checkUnchanged(descriptor, since: before, displayPath: sourcePath)
    try finishFile(path: path)
  }

  // MARK: Helpers

  private func report(bytes: Int) {
    dataByteCount += Int64(bytes)
    guard let progress else { return }
    progress.completedByteCount += UInt64(bytes)
    progress.complete(count: bytes)
  }

  private func finishFile(path: String) throws {
    try handle.finishEntry(name: path)
    progress?.completeFile(path)
    completeEntry()
  }

  private func completeEntry() {
    entryCount += 1
    progress?.complete(count: 1)
  }

  private func checkCancellation() throws {
    if let progress {
      try progress.checkCancellation()
    } else if Task.isCancelled {
      throw CancellationError()
    }
  }

  private func prepareEntry(
    path: String, type: ArchiveEntryHandle.FileType, metadata: ArchiveWriter.Metadata
  ) throws {
    entry.clear()
    entry.pathname = path
    entry.fileType = type
    entry.permissions = metadata.permissions
    if options.reproducible {
      entry.userID = 0
      entry.groupID = 0
    } else {
      entry.userID = Int64(metadata.userID)
      entry.groupID = Int64(metadata.groupID)
      if let name = ownerName(metadata.userID) { entry.userName = name }
      if let name = groupName(metadata.groupID) { entry.groupName = name }
    }
    entry.modificationTime = metadata.modificationTime
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
