/// Where an entry's compressed bytes are in an earlier zip, copied as they are instead of
/// compressing the file again (`pack --update`, as Info-ZIP's `zip -u` copies unchanged
/// entries).
///
/// It names no archive: the writer is told the earlier archive once
/// (``ZipEntryWriter/earlierArchive``), so copying an entry's location to the threads that
/// prepare and write it costs no reference counting on an object they all share.
struct ZipReusedData: Sendable {
  /// The entry's position in its central directory.
  let index: Int
  /// Where the entry's local header starts.
  let localHeaderOffset: Int64
  /// Where the entry's data starts.
  let dataOffset: Int64
  /// The data's length.
  let compressedSize: Int64
  /// The CRC-32 of the uncompressed bytes, as the earlier archive records it.
  let crc32: UInt32
  /// Stored or deflated (no other method is reused).
  let method: ZipEntryRecord.Method

  /// Whether the earlier archive's local header for the entry is these bytes, so the
  /// header and the data can be copied together.
  ///
  /// - Parameters:
  ///   - header: The local header a fresh pack would write.
  ///   - archive: The earlier archive, opened keeping its local headers.
  /// - Returns: `true` when the two are the same bytes.
  func hasLocalHeader(_ header: UnsafeBufferPointer<UInt8>, in archive: ZipArchive) -> Bool {
    archive.hasLocalHeader(at: index, equalTo: header)
  }
}
