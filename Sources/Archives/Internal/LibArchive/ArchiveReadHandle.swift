internal import CLibArchive
import FolioSystem
import FoundationEssentials

/// Owns one libarchive read handle (`struct archive *` from
/// `archive_read_new`), freed in `deinit`.
///
/// A handle does one of two jobs. It reads an archive format (tar, cpio,
/// 7-Zip, ISO 9660, …) from a file or from decoded bytes, with no
/// compression filter: Folio peels compression itself, one layer at a time
/// (see ``ArchiveStreamOpener``). Or it undoes exactly one compression for
/// such a layer (``LibArchiveFilterSource``), with the `raw` format.
///
/// Zip is never read by libarchive: Folio's own reader (``ZipArchive``)
/// reads it through the central directory it checked. `mtree` is left out
/// too: its entries name files on the reading machine.
final class ArchiveReadHandle {
  /// What a handle should recognise.
  enum Formats {
    /// Real archive formats, zip and mtree excepted.
    case archives
    /// Any bytes as one entry: for undoing a compression only.
    case raw
  }

  /// The owned archive; valid for the handle's lifetime.
  let pointer: OpaquePointer
  /// The archive's name for messages.
  let name: String
  /// What the handle reads from, kept alive for the callbacks.
  var input: (any ArchiveReadInput)?

  /// Creates a read handle for archive formats, or for one compression.
  ///
  /// The corresponding C functions are `archive_read_new`, `archive_read_support_format_*`
  /// and `archive_read_support_filter_*`.
  ///
  /// - Parameters:
  ///   - name: The archive's name for messages.
  ///   - formats: The formats to recognise.
  ///   - filter: The one compression to undo, if any.
  /// - Throws: ``PackagingError`` when libarchive refuses a setting.
  init(name: String, formats: Formats, filter: CompressionFilter? = nil) throws {
    LibArchive.prepareLocale()
    guard let pointer = archive_read_new() else {
      throw PackagingError(.archiveFatal, "cannot allocate an archive reader")
    }
    self.pointer = pointer
    self.name = name
    let what = "configuring the reader for '\(name)'"
    if let filter {
      // ARCHIVE_WARN: the library lacks it and would run an external program: refused.
      let status = filter.enableReading(on: pointer)
      if status == ARCHIVE_WARN {
        throw PackagingError(
          .unsupportedCompression,
          "'\(name)' is compressed with \(filter.rawValue), which this system's libarchive cannot decode itself"
        )
      }
      try LibArchive.check(status, pointer, what)
    }
    switch formats {
    case .raw:
      try LibArchive.check(archive_read_support_format_raw(pointer), pointer, what)
    case .archives:
      let enable: [(OpaquePointer?) -> CInt] = [
        archive_read_support_format_tar, archive_read_support_format_gnutar,
        archive_read_support_format_cpio, archive_read_support_format_7zip,
        archive_read_support_format_iso9660, archive_read_support_format_xar,
        archive_read_support_format_rar, archive_read_support_format_rar5,
        archive_read_support_format_cab, archive_read_support_format_lha,
        archive_read_support_format_ar, archive_read_support_format_warc,
        archive_read_support_format_empty,
      ]
      for support in enable { try LibArchive.check(support(pointer), pointer, what) }
    }
  }

  deinit {
    archive_read_free(pointer)
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
    try rethrowInputError()
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
    try rethrowInputError()
    if try LibArchive.check(status, pointer, "reading the data of \(entryName())") == ARCHIVE_EOF {
      return nil
    }
    return (UnsafeRawBufferPointer(start: buffer, count: buffer == nil ? 0 : size), Int64(offset))
  }

  /// How many filters the stream passed through, the format itself counting as one.
  ///
  /// The corresponding C function is `archive_filter_count`.
  var filterCount: Int { Int(archive_filter_count(pointer)) }

  /// The compression the handle undid, when it is one of Folio's.
  ///
  /// The corresponding C function is `archive_filter_code`.
  var decodedFilter: CompressionFilter? {
    guard filterCount == 2 else { return nil }
    return CompressionFilter(libArchiveCode: archive_filter_code(pointer, 0))
  }

  /// The format's name as libarchive spells it (`POSIX pax interchange format`).
  ///
  /// The corresponding C function is `archive_format_name`.
  var formatName: String {
    archive_format_name(pointer).map { String(cString: $0) } ?? "unknown"
  }

  /// Whether the format being read is a tar (ustar, pax, GNU, v7).
  var isTar: Bool { archive_format(pointer) & ARCHIVE_FORMAT_BASE_MASK == ARCHIVE_FORMAT_TAR }

  /// Whether the format being read is ISO 9660 (with or without Rock Ridge).
  var isISO9660: Bool {
    archive_format(pointer) & ARCHIVE_FORMAT_BASE_MASK == ARCHIVE_FORMAT_ISO9660
  }

  /// Throws the error the input met in a callback, once.
  func rethrowInputError() throws {
    if let error = input?.takeError() { throw error }
  }
}

extension ArchiveReadHandle {
  /// Where the current entry's headers began in the bytes the handle reads.
  ///
  /// The corresponding C function is `archive_read_header_position`.
  var headerPosition: Int64 { archive_read_header_position(pointer) }

  /// How far the format reader has consumed the bytes the handle reads (read-ahead not
  /// counted).
  ///
  /// The corresponding C function is `archive_filter_bytes` with index 0.
  var consumedPosition: Int64 { archive_filter_bytes(pointer, 0) }
}
