internal import CLibArchive
import Foundation

/// Owns one libarchive read handle (`struct archive *` from
/// `archive_read_new`), freed in `deinit`.
///
/// A handle reads either a file (seekable, so libarchive's seeking zip reader
/// wins over the streaming one and reads the central directory), or the
/// decompressed bytes of another handle (see ``DecompressedFeed``). Formats
/// are enabled one by one: everything `archive_read_support_format_all`
/// offers except `mtree`, whose entries name files on the reading machine,
/// and `raw`, which accepts anything.
final class ArchiveReadHandle {
  /// What a handle should recognise.
  enum Formats {
    /// Real archive formats (tar, zip, cpio, 7-Zip, ISO 9660, xar, RAR, …).
    case archives
    /// Any bytes as one entry, after every compression filter: for decompressing only.
    case raw
  }

  /// The bytes one read of a file asks for.
  static let fileBlockSize = 64 << 10

  /// The owned archive; valid for the handle's lifetime.
  let pointer: OpaquePointer
  /// The archive's name for messages.
  let name: String
  private var feed: DecompressedFeed?
  private var input: FileInput?

  /// Creates a read handle with formats and, when asked, every compression filter.
  ///
  /// The corresponding C functions are `archive_read_new`, `archive_read_support_format_*`
  /// and `archive_read_support_filter_all`.
  ///
  /// - Parameters:
  ///   - name: The archive's name for messages.
  ///   - formats: The formats to recognise.
  ///   - filters: Whether to undo compression (gzip, bzip2, xz, zstd, lz4, …).
  /// - Throws: ``PackagingError`` when libarchive refuses a setting.
  init(name: String, formats: Formats, filters: Bool) throws {
    LibArchive.prepareLocale()
    guard let pointer = archive_read_new() else {
      throw PackagingError(.archiveFatal, "cannot allocate an archive reader")
    }
    self.pointer = pointer
    self.name = name
    let what = "configuring the reader for '\(name)'"
    if filters {
      // The compressions Folio and common tools write; not `uu`, `rpm` or the
      // program-only ones (`lrzip`, `lzop`, `grzip`), which run external tools.
      let enable: [(OpaquePointer?) -> CInt] = [
        archive_read_support_filter_gzip, archive_read_support_filter_bzip2,
        archive_read_support_filter_xz, archive_read_support_filter_lzma,
        archive_read_support_filter_lzip, archive_read_support_filter_zstd,
        archive_read_support_filter_lz4, archive_read_support_filter_compress,
      ]
      for support in enable {
        // ARCHIVE_WARN: the library lacks it and will run the external program instead.
        let status = support(pointer)
        if status != ARCHIVE_WARN { try LibArchive.check(status, pointer, what) }
      }
    }
    switch formats {
    case .raw:
      try LibArchive.check(archive_read_support_format_raw(pointer), pointer, what)
    case .archives:
      let enable: [(OpaquePointer?) -> CInt] = [
        archive_read_support_format_tar, archive_read_support_format_gnutar,
        archive_read_support_format_zip, archive_read_support_format_cpio,
        archive_read_support_format_7zip, archive_read_support_format_iso9660,
        archive_read_support_format_xar, archive_read_support_format_rar,
        archive_read_support_format_rar5, archive_read_support_format_cab,
        archive_read_support_format_lha, archive_read_support_format_ar,
        archive_read_support_format_warc, archive_read_support_format_empty,
      ]
      for support in enable { try LibArchive.check(support(pointer), pointer, what) }
    }
  }

  deinit {
    archive_read_free(pointer)
  }

  /// Opens a file for reading.
  ///
  /// The file is read through Folio's own callbacks rather than
  /// `archive_read_open_filename`, so that a failed `read` keeps its errno: libarchive's
  /// format readers report a failed read as a truncated archive ("Truncated ZIP file
  /// body"), which would blame the archive for a failing disk. Interrupted calls are
  /// retried.
  ///
  /// The corresponding C functions are `archive_read_set_read_callback`,
  /// `…_seek_callback`, `…_skip_callback` and `archive_read_open1`.
  ///
  /// - Parameter path: The file's path.
  /// - Throws: ``PackagingError``: `archive-unreadable` when it cannot be opened or read,
  ///   libarchive's codes when it is not recognised.
  func open(path: String) throws {
    let descriptor = SystemCall.retryingInterrupts { Glibc.open(path, O_RDONLY | O_CLOEXEC) }
    guard descriptor >= 0 else {
      throw PackagingError(
        .archiveUnreadable, "cannot open '\(name)'", cause: SystemError(errno: errno))
    }
    let input = FileInput(descriptor: descriptor, blockSize: Self.fileBlockSize)
    self.input = input
    let what = "opening '\(name)'"
    try LibArchive.check(
      archive_read_set_callback_data(pointer, Unmanaged.passUnretained(input).toOpaque()),
      pointer, what)
    try LibArchive.check(
      archive_read_set_read_callback(pointer) { _, client, buffer in
        guard let client, let buffer else { return -1 }
        return Unmanaged<FileInput>.fromOpaque(client).takeUnretainedValue().read(into: buffer)
      }, pointer, what)
    try LibArchive.check(
      archive_read_set_seek_callback(pointer) { _, client, offset, whence in
        guard let client else { return la_int64_t(ARCHIVE_FATAL) }
        return Unmanaged<FileInput>.fromOpaque(client).takeUnretainedValue()
          .seek(to: offset, whence: whence)
      }, pointer, what)
    try LibArchive.check(
      archive_read_set_skip_callback(pointer) { _, client, request in
        guard let client else { return -1 }
        return Unmanaged<FileInput>.fromOpaque(client).takeUnretainedValue().skip(request)
      }, pointer, what)
    let status = archive_read_open1(pointer)
    try rethrowFeedError()
    try LibArchive.check(status, pointer, what)
  }

  /// Opens the decompressed bytes of another handle for reading.
  ///
  /// The corresponding C function is `archive_read_open` with a read callback.
  ///
  /// - Parameter feed: The decompressed stream; the handle keeps it alive.
  /// - Throws: The feed's own error, or ``PackagingError`` when libarchive fails.
  func open(feed: DecompressedFeed) throws {
    self.feed = feed
    let client = Unmanaged.passUnretained(feed).toOpaque()
    let status = archive_read_open(
      pointer, client, nil,
      { _, client, buffer in
        guard let client, let buffer else { return -1 }
        let feed = Unmanaged<DecompressedFeed>.fromOpaque(client).takeUnretainedValue()
        return feed.next(buffer)
      }, nil)
    try rethrowFeedError()
    try LibArchive.check(status, pointer, "opening '\(name)'")
  }

  /// Reads the next entry's header into `entry`.
  ///
  /// The corresponding C function is `archive_read_next_header2`. A damaged
  /// header (`ARCHIVE_RETRY`, which bsdtar skips) and any warning are errors.
  ///
  /// - Parameter entry: The entry to fill.
  /// - Returns: `false` at the end of the archive.
  /// - Throws: ``PackagingError`` for a damaged or unreadable header.
  func nextHeader(into entry: ArchiveEntryHandle) throws -> Bool {
    let status = archive_read_next_header2(pointer, entry.pointer)
    try rethrowFeedError()
    return try LibArchive.check(status, pointer, "reading the next header of '\(name)'")
      != ARCHIVE_EOF
  }

  /// Reads the current entry's next block of data, without copying.
  ///
  /// The corresponding C function is `archive_read_data_block`. The bytes
  /// stay valid until the next call on this handle.
  ///
  /// - Parameter entryName: The entry, for messages.
  /// - Returns: The bytes and their offset in the entry (sparse entries skip
  ///   ahead), or `nil` at the end of the entry's data.
  /// - Throws: ``PackagingError`` for damaged data (bad CRC, truncated, broken stream).
  func readBlock(entryName: @autoclosure () -> String) throws -> (
    bytes: UnsafeRawBufferPointer, offset: Int64
  )? {
    var buffer: UnsafeRawPointer?
    var size = 0
    var offset: la_int64_t = 0
    let status = archive_read_data_block(pointer, &buffer, &size, &offset)
    try rethrowFeedError()
    if try LibArchive.check(status, pointer, "reading the data of \(entryName())") == ARCHIVE_EOF {
      return nil
    }
    return (UnsafeRawBufferPointer(start: buffer, count: buffer == nil ? 0 : size), Int64(offset))
  }

  /// How many filters the stream passed through, the format itself counting as one.
  ///
  /// The corresponding C function is `archive_filter_count`.
  var filterCount: Int { Int(archive_filter_count(pointer)) }

  /// The outermost compression's name (`gzip`, `zstd`), or `nil` when uncompressed.
  ///
  /// The corresponding C function is `archive_filter_name`.
  var compressionName: String? {
    guard filterCount > 1, let text = archive_filter_name(pointer, 0) else { return nil }
    return String(cString: text)
  }

  /// Compressed bytes the innermost filter has taken from the file (the end of
  /// the compressed data once the stream is drained, read-ahead not counted).
  ///
  /// The corresponding C function is `archive_filter_bytes` with the last index.
  var compressedBytesUsed: Int64 { archive_filter_bytes(pointer, CInt(filterCount - 1)) }

  /// Whether the outermost compression is gzip.
  var isGzip: Bool { filterCount > 1 && archive_filter_code(pointer, 0) == ARCHIVE_FILTER_GZIP }

  /// The format's name as libarchive spells it (`POSIX pax interchange format`, `ZIP 2.0 (deflation)`).
  ///
  /// The corresponding C function is `archive_format_name`.
  var formatName: String {
    archive_format_name(pointer).map { String(cString: $0) } ?? "unknown"
  }

  /// Whether the format being read is zip.
  var isZip: Bool { archive_format(pointer) & ARCHIVE_FORMAT_BASE_MASK == ARCHIVE_FORMAT_ZIP }

  /// Bytes read from the underlying file (or feed) so far.
  ///
  /// The corresponding C function is `archive_filter_bytes` with index -1.
  var bytesConsumed: Int64 { archive_filter_bytes(pointer, -1) }

  private func rethrowFeedError() throws {
    if let error = feed?.takeError() { throw error }
    if let input, input.failure != 0 {
      let code = input.failure
      input.failure = 0
      throw PackagingError(
        .archiveUnreadable, "cannot read '\(name)'", cause: SystemError(errno: code))
    }
  }
}

/// The archive file under a read handle: its descriptor, a block buffer, and the errno
/// of the last failed call, for the handle to report.
final class FileInput {
  private let descriptor: Int32
  private let buffer: UnsafeMutableRawPointer
  private let blockSize: Int
  /// The errno of a failed `read` or `lseek`, 0 when none failed.
  var failure: Int32 = 0

  /// Takes ownership of an open descriptor.
  ///
  /// - Parameters:
  ///   - descriptor: The file, open for reading; closed in `deinit`.
  ///   - blockSize: The bytes one read asks for.
  init(descriptor: Int32, blockSize: Int) {
    self.descriptor = descriptor
    self.blockSize = blockSize
    buffer = UnsafeMutableRawPointer.allocate(byteCount: blockSize, alignment: 16)
  }

  deinit {
    close(descriptor)
    buffer.deallocate()
  }

  /// The read callback's body: the next block, 0 at the end, -1 on error.
  fileprivate func read(into start: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int {
    let count = SystemCall.retryingInterrupts { Glibc.read(descriptor, buffer, blockSize) }
    if count < 0 {
      failure = errno
      return -1
    }
    start.pointee = UnsafeRawPointer(buffer)
    return count
  }

  /// The seek callback's body: the new offset, or `ARCHIVE_FATAL`.
  fileprivate func seek(to offset: la_int64_t, whence: CInt) -> la_int64_t {
    let position = lseek(descriptor, off_t(offset), whence)
    if position < 0 {
      failure = errno
      return la_int64_t(ARCHIVE_FATAL)
    }
    return la_int64_t(position)
  }

  /// The skip callback's body: the bytes skipped, or -1.
  fileprivate func skip(_ request: la_int64_t) -> la_int64_t {
    guard lseek(descriptor, off_t(request), SEEK_CUR) >= 0 else {
      failure = errno
      return -1
    }
    return request
  }
}

/// The decompressed bytes of a `raw` read handle, fed to a second handle that
/// reads the archive format.
///
/// Splitting decompression from the format lets Folio read the compressed
/// stream to its very end (libarchive's tar reader stops at the end-of-archive
/// blocks, before a gzip, xz or zstd trailer is checked) and see every
/// decompressed byte, to check the gzip trailer's CRC-32 and length itself.
final class DecompressedFeed {
  /// The decompressing handle (`raw` format, every filter).
  let upstream: ArchiveReadHandle
  /// Decompressed bytes handed on so far.
  private(set) var length: UInt64 = 0
  private(set) var checksum = CRC32()
  private let computesChecksum: Bool
  private var error: (any Error)?
  private var ended = false

  /// Creates a feed over a decompressing handle positioned on its one entry.
  ///
  /// - Parameter upstream: The handle; its `raw` entry's header must already be read.
  init(upstream: ArchiveReadHandle) {
    self.upstream = upstream
    computesChecksum = upstream.isGzip
  }

  /// The read callback's body: the next decompressed block, 0 at the end, -1 on error.
  fileprivate func next(_ buffer: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int {
    do {
      guard let block = try nextBlock() else {
        buffer.pointee = nil
        return 0
      }
      buffer.pointee = block.baseAddress
      return block.count
    } catch {
      self.error = error
      return -1
    }
  }

  /// The next non-empty decompressed block, or `nil` at the end.
  private func nextBlock() throws -> UnsafeRawBufferPointer? {
    while !ended {
      guard let block = try upstream.readBlock(entryName: "'\(upstream.name)'") else {
        ended = true
        return nil
      }
      guard block.bytes.count > 0 else { continue }
      length &+= UInt64(block.bytes.count)
      if computesChecksum { checksum.update(block.bytes) }
      return block.bytes
    }
    return nil
  }

  /// Reads what is left of the compressed stream, so its trailer is checked.
  ///
  /// - Returns: The bytes left after the archive's own end (padding, mostly).
  /// - Throws: ``PackagingError`` when the rest of the stream is damaged.
  @discardableResult
  func drain() throws -> UInt64 {
    var rest: UInt64 = 0
    while let block = try nextBlock() { rest += UInt64(block.count) }
    return rest
  }

  /// The error the read callback met, once.
  fileprivate func takeError() -> (any Error)? {
    defer { error = nil }
    return error
  }
}
