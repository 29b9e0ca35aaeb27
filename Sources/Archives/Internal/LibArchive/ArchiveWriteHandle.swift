internal import CLibArchive
import FolioSystem
import FoundationEssentials

/// Owns one libarchive write handle (`struct archive *` from
/// `archive_write_new`), freed in `deinit`.
///
/// The handle writes to a file descriptor through its own write callback, so
/// that when a write is abandoned (an error, a cancellation) the descriptor can
/// be detached first: `archive_write_free` then flushes into nothing instead of
/// into a descriptor that may already be closed or reused.
final class ArchiveWriteHandle {
  /// The owned archive; valid for the handle's lifetime.
  let pointer: OpaquePointer
  /// The format being written.
  let format: ArchiveFormat
  private let output: Output
  private var outputName = ""
  private var opened = false
  private let level: Int?
  private let jobs: Int

  /// The size of the blocks libarchive hands to the output (its default is
  /// tar's 10 KiB, one `write` per 10 KiB).
  static let blockSize = 256 * 1024

  /// Where the archive's bytes go, shared with the C write callback: the
  /// descriptor, or Folio's gzip or zstd writer in front of it.
  final class Output {
    let descriptor: Int32
    var compressor: (any CompressedOutput)?
    var detached = false
    var bytesWritten: Int64 = 0
    /// The errno of a failed write.
    var failure: Int32 = 0
    /// A failure of the compressor (compressing, or writing with its errno).
    var compressorFailure: (any Error)?
    /// Appends to the archive, starting its disk writing a stretch at a time.
    private var writeBehind: WriteBehind

    init(descriptor: Int32) {
      self.descriptor = descriptor
      writeBehind = WriteBehind(descriptor: descriptor)
    }

    /// Takes libarchive's next block.
    func write(_ buffer: UnsafeRawPointer, _ length: Int) -> Int {
      let bytes = UnsafeRawBufferPointer(start: buffer, count: length)
      if let compressor {
        do {
          try compressor.write(bytes)
        } catch {
          compressorFailure = error
          return -1
        }
        return length
      }
      failure = writeBehind.append(bytes)
      if failure != 0 { return -1 }
      bytesWritten += Int64(length)
      return length
    }
  }

  /// Creates a write handle for a format.
  ///
  /// The corresponding C functions are `archive_write_new`,
  /// `archive_write_set_format_pax_restricted` and
  /// `archive_write_add_filter_*`.
  ///
  /// - Parameters:
  ///   - format: The archive format.
  ///   - level: The compression level, or `nil` for the format's default.
  ///   - reproducible: Whether to avoid anything that varies between runs or
  ///     machines (gzip timestamps, thread-dependent xz blocks).
  ///   - jobs: How many threads compress (gzip blocks, zstd and xz workers).
  ///   - descriptor: An open, writable descriptor; the handle never closes it.
  /// - Throws: ``PackagingError`` when libarchive refuses a setting.
  init(format: ArchiveFormat, level: Int?, reproducible: Bool, jobs: Int, descriptor: Int32)
    throws
  {
    LibArchive.prepareLocale()
    guard let pointer = archive_write_new() else {
      throw PackagingError(.archiveFatal, "cannot allocate an archive writer")
    }
    self.pointer = pointer
    self.format = format
    self.level = level
    self.jobs = max(1, jobs)
    self.output = Output(descriptor: descriptor)
    try configure(level: level, reproducible: reproducible)
  }

  deinit {
    output.detached = true
    archive_write_free(pointer)
    output.compressor?.abandon()
  }

  private func configure(level: Int?, reproducible: Bool) throws {
    let what = "configuring \(format) writer"
    // Zip is Folio's own writer (ZipEntryWriter): libarchive writes tar only.
    precondition(format.isTar, "libarchive writes tar formats only")
    try LibArchive.check(archive_write_set_format_pax_restricted(pointer), pointer, what)
    switch format {
    case .zip, .tar:
      break
    case .tarGzip, .tarZstd:
      break  // compressed by Folio's own writer (CompressedOutput), in the write callback

    case .tarBzip2:
      try LibArchive.check(archive_write_add_filter_bzip2(pointer), pointer, what)
      if let level { try setFilterOption("bzip2", "compression-level", String(level)) }
    case .tarXz:
      try LibArchive.check(archive_write_add_filter_xz(pointer), pointer, what)
      if let level { try setFilterOption("xz", "compression-level", String(level)) }
      // liblzma's multi-threaded encoder cuts the stream into blocks its single-threaded one
      // does not: the same bytes for every count of two or more threads, other bytes for one.
      // Reproducible archives use one thread, so every --jobs gives the same bytes.
      try setFilterOption("xz", "threads", reproducible ? "1" : String(jobs))
    }
    // Large blocks, fewer write calls; a regular file needs no padding after the last one.
    try LibArchive.check(
      archive_write_set_bytes_per_block(pointer, CInt(Self.blockSize)), pointer, what)
    try LibArchive.check(archive_write_set_bytes_in_last_block(pointer, 1), pointer, what)
  }

  private func setFilterOption(_ module: String, _ option: String, _ value: String?) throws {
    try LibArchive.check(
      archive_write_set_filter_option(pointer, module, option, value), pointer,
      "setting \(module) option \(option)")
  }

  /// Starts writing to the descriptor.
  ///
  /// The corresponding C function is `archive_write_open2`.
  ///
  /// - Parameter name: The output's path, for messages.
  /// - Throws: ``PackagingError`` when libarchive cannot start.
  func open(name: String) throws {
    outputName = name
    switch format {
    case .tarGzip:
      output.compressor = ParallelGzipWriter(
        descriptor: output.descriptor, name: name, level: level ?? 6, jobs: jobs)
    case .tarZstd:
      output.compressor = try ZstdStreamWriter(
        descriptor: output.descriptor, name: name,
        level: level ?? format.defaultCompressionLevel ?? 3, jobs: jobs)
    default:
      break
    }
    let status = archive_write_open2(
      pointer, Unmanaged.passUnretained(output).toOpaque(), nil,
      { _, client, buffer, length in
        guard let client else { return -1 }
        let output = Unmanaged<ArchiveWriteHandle.Output>.fromOpaque(client)
          .takeUnretainedValue()
        if output.detached { return length }
        guard let buffer else { return 0 }
        return output.write(buffer, length)
      }, nil, nil)
    try check(status, "opening archive '\(name)' for writing")
    opened = true
  }

  /// The bytes written to the descriptor so far.
  var bytesWritten: Int64 { output.compressor?.bytesWritten ?? output.bytesWritten }

  /// Writes an entry's header.
  ///
  /// The corresponding C function is `archive_write_header`.
  ///
  /// - Parameter entry: The entry, with its size set for regular files.
  /// - Throws: ``PackagingError`` naming the entry.
  func writeHeader(_ entry: ArchiveEntryHandle) throws {
    try check(
      archive_write_header(pointer, entry.pointer),
      "writing header for '\(entry.pathname ?? "?")'")
  }

  /// Writes a chunk of the current entry's data.
  ///
  /// The corresponding C function is `archive_write_data`.
  ///
  /// - Parameters:
  ///   - bytes: The chunk.
  ///   - name: The entry's path, for messages.
  /// - Throws: ``PackagingError`` naming the entry.
  func writeData(_ bytes: UnsafeRawBufferPointer, name: @autoclosure () -> String) throws {
    var offset = 0
    while offset < bytes.count {
      let written = archive_write_data(
        pointer, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
      let count = try checkCount(written, "writing data of '\(name())'")
      guard count > 0 else {
        throw PackagingError(
          .archiveFailed, "writing data of '\(name())': libarchive accepted no bytes")
      }
      offset += count
    }
  }

  /// Ends the current entry (pads it to the tar block size).
  ///
  /// The corresponding C function is `archive_write_finish_entry`.
  ///
  /// - Parameter name: The entry's path, for messages.
  /// - Throws: ``PackagingError`` naming the entry.
  func finishEntry(name: @autoclosure () -> String) throws {
    try check(archive_write_finish_entry(pointer), "finishing entry '\(name())'")
  }

  /// Writes the archive's end (tar end blocks) and flushes the compressor.
  ///
  /// The corresponding C function is `archive_write_close`.
  ///
  /// - Parameter name: The output's path, for messages.
  /// - Throws: ``PackagingError`` when the end cannot be written.
  func close(name: String) throws {
    guard opened else { return }
    opened = false
    try check(archive_write_close(pointer), "finishing archive '\(name)'")
    try output.compressor?.finish()
  }

  /// Stops all further output to the descriptor; used before abandoning a write.
  func detach() {
    output.detached = true
    output.compressor?.abandon()
  }

  private func check(_ status: CInt, _ operation: @autoclosure () -> String) throws {
    do {
      try LibArchive.check(status, pointer, operation())
    } catch var error as PackagingError {
      if let failure = output.compressorFailure {
        // The compressor's own error names the archive and the cause.
        throw failure
      }
      if output.failure != 0 {
        // The disk refused the archive's bytes: name the archive, not only the entry.
        // The cause prints as the system's words: `…: No space left on device`.
        error.cause = SystemError(errno: output.failure)
        error.message = "cannot write '\(outputName)' (\(operation()))"
      }
      throw error
    }
  }

  private func checkCount(_ count: Int, _ operation: @autoclosure () -> String) throws -> Int {
    if count >= 0 { return count }
    try check(CInt(clamping: count), operation())
    return 0
  }
}
