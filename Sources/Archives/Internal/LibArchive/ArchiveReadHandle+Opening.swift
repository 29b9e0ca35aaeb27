internal import CLibArchive
import FoundationEssentials

extension ArchiveReadHandle {
  /// Opens the handle on an input: a file read with seeks, or a ``ByteSource``.
  ///
  /// The input is read through Folio's own callbacks rather than
  /// `archive_read_open_filename`, so that a failed `read` keeps its errno:
  /// libarchive's format readers report a failed read as a truncated archive,
  /// which would blame the archive for a failing disk.
  ///
  /// The corresponding C functions are `archive_read_set_read_callback`,
  /// `…_seek_callback`, `…_skip_callback` and `archive_read_open1`.
  ///
  /// - Parameter input: What to read; the handle keeps it alive.
  /// - Throws: ``PackagingError``: the input's own error, or libarchive's codes when the
  ///   bytes are not recognised.
  func open(_ input: any ArchiveReadInput) throws {
    self.input = input
    let what = "opening '\(name)'"
    try LibArchive.check(
      archive_read_set_callback_data(pointer, Unmanaged.passUnretained(self).toOpaque()),
      pointer, what)
    try LibArchive.check(
      archive_read_set_read_callback(pointer) { _, client, buffer in
        guard let client, let buffer else { return -1 }
        let handle = Unmanaged<ArchiveReadHandle>.fromOpaque(client).takeUnretainedValue()
        return handle.input?.read(into: buffer) ?? -1
      }, pointer, what)
    if input.canSkip {
      try LibArchive.check(
        archive_read_set_skip_callback(pointer) { _, client, request in
          guard let client else { return -1 }
          let handle = Unmanaged<ArchiveReadHandle>.fromOpaque(client).takeUnretainedValue()
          return la_int64_t(handle.input?.skip(Int64(request)) ?? -1)
        }, pointer, what)
    }
    if input.canSeek {
      try LibArchive.check(
        archive_read_set_seek_callback(pointer) { _, client, offset, whence in
          guard let client else { return la_int64_t(ARCHIVE_FATAL) }
          let handle = Unmanaged<ArchiveReadHandle>.fromOpaque(client).takeUnretainedValue()
          let position = handle.input?.seek(to: Int64(offset), whence: whence) ?? -1
          return position < 0 ? la_int64_t(ARCHIVE_FATAL) : la_int64_t(position)
        }, pointer, what)
    }
    let status = archive_read_open1(pointer)
    try rethrowInputError()
    try LibArchive.check(status, pointer, what)
  }
}

extension CompressionFilter {
  /// Enables reading this compression on a handle.
  ///
  /// - Parameter pointer: The handle.
  /// - Returns: libarchive's status (`ARCHIVE_WARN` when it would run an external program).
  func enableReading(on pointer: OpaquePointer) -> CInt {
    switch self {
    case .gzip: archive_read_support_filter_gzip(pointer)
    case .bzip2: archive_read_support_filter_bzip2(pointer)
    case .xz: archive_read_support_filter_xz(pointer)
    case .lzma: archive_read_support_filter_lzma(pointer)
    case .lzip: archive_read_support_filter_lzip(pointer)
    case .zstd: archive_read_support_filter_zstd(pointer)
    case .lz4: archive_read_support_filter_lz4(pointer)
    case .compress: archive_read_support_filter_compress(pointer)
    case .rpm: archive_read_support_filter_rpm(pointer)
    }
  }

  /// The compression a libarchive filter code names, if it is one of Folio's.
  ///
  /// - Parameter code: An `ARCHIVE_FILTER_*` value.
  init?(libArchiveCode code: CInt) {
    switch code {
    case ARCHIVE_FILTER_GZIP: self = .gzip
    case ARCHIVE_FILTER_BZIP2: self = .bzip2
    case ARCHIVE_FILTER_XZ: self = .xz
    case ARCHIVE_FILTER_LZMA: self = .lzma
    case ARCHIVE_FILTER_LZIP: self = .lzip
    case ARCHIVE_FILTER_ZSTD: self = .zstd
    case ARCHIVE_FILTER_LZ4: self = .lz4
    case ARCHIVE_FILTER_COMPRESS: self = .compress
    case ARCHIVE_FILTER_RPM: self = .rpm
    default: return nil
    }
  }
}
