/// An entry's compressed bytes in an earlier zip, copied as they are instead of compressing
/// the file again (`pack --update`, as Info-ZIP's `zip -u` copies unchanged entries).
struct ZipReusedData: @unchecked Sendable {
  /// The earlier archive; read only on the writer's thread.
  let file: ArchiveFile
  /// Where the entry's data starts in it.
  let dataOffset: Int64
  /// The data's length.
  let compressedSize: Int64
  /// The CRC-32 of the uncompressed bytes, as the earlier archive records it.
  let crc32: UInt32
  /// Stored or deflated (no other method is reused).
  let method: ZipEntryRecord.Method
}
