/// One compression layer undone by libarchive (bzip2, xz, lzma, lzip, zstd, lz4,
/// compress), reading another source's bytes.
///
/// The handle enables that one filter and the `raw` format, so it peels
/// exactly one layer: what lies beneath is looked at again by the opener.
/// Each decoder checks its own stream's checksums as it reaches them (xz's
/// CRC-64 or SHA-256, zstd's content checksum, bzip2's block CRCs), so
/// the source must be read to its end (``drain()``) for those checks to
/// run.
final class LibArchiveFilterSource: ByteSource {
  /// The compression undone.
  let filter: CompressionFilter
  private let handle: ArchiveReadHandle
  private let context: String
  private var ended = false

  /// Starts decoding.
  ///
  /// - Parameters:
  ///   - upstream: The compressed bytes.
  ///   - filter: The compression they are in.
  ///   - name: The archive's name, for libarchive's messages.
  ///   - context: What is being read, for messages (`'x.tar.xz'`, `entry 'a.txt'`).
  /// - Throws: ``PackagingError`` (`corrupt-archive`) when the bytes are not that compression.
  init(_ upstream: any ByteSource, filter: CompressionFilter, name: String, context: String) throws
  {
    self.filter = filter
    self.context = context
    handle = try ArchiveReadHandle(name: name, formats: .raw, filter: filter)
    let entry = try ArchiveEntryHandle()
    do {
      try handle.open(ByteSourceInput(upstream))
      _ = try handle.nextHeader(into: entry)
    } catch let error as PackagingError where error.code.isLibArchiveFailure {
      throw PackagingError(
        .corruptArchive, "\(context): damaged \(filter.rawValue) data: \(error.message)",
        cause: error)
    }
    guard handle.decodedFilter == filter else {
      throw PackagingError(
        .corruptArchive, "\(context): the data is not a \(filter.rawValue) stream")
    }
  }

  func next() throws -> UnsafeRawBufferPointer? {
    while !ended {
      let block: (bytes: UnsafeRawBufferPointer, offset: Int64)?
      do {
        block = try handle.readBlock(entryName: context)
      } catch let error as PackagingError where error.code.isLibArchiveFailure {
        throw PackagingError(
          .corruptArchive, "\(context): damaged \(filter.rawValue) data: \(error.message)",
          cause: error)
      }
      guard let block else {
        ended = true
        return nil
      }
      if block.bytes.count > 0 { return block.bytes }
    }
    return nil
  }
}

extension PackagingErrorDomain.Code {
  /// Whether the code is one of libarchive's own (`archive-warning`, `-failed`, `-fatal`).
  var isLibArchiveFailure: Bool {
    self == .archiveWarning || self == .archiveFailed || self == .archiveFatal
  }
}
