/// Bytes read front to back in chunks: a file, a range of one, standard input, or a
/// decoder over another source.
///
/// Sources chain: a gzip decoder reads the file, an xz decoder reads the gzip
/// decoder's output, and libarchive's tar reader reads the last one. A
/// source is used by one thread at a time.
protocol ByteSource: AnyObject {
  /// The next chunk, never empty, or `nil` at the end.
  ///
  /// The bytes stay valid until the next call on this source.
  ///
  /// - Returns: The chunk, or `nil` when the source is exhausted.
  /// - Throws: ``PackagingError`` naming the archive (a failed read, damaged data).
  func next() throws -> UnsafeRawBufferPointer?
}

/// The chunk size of Folio's own readers and decoders: one `read` of a file, one
/// decoder output buffer.
enum ByteSourceChunk {
  /// 64 KiB, libarchive's own block size.
  static let size = 64 << 10
}
