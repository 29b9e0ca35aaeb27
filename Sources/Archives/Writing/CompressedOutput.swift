/// A compressor in front of a tar archive's descriptor: libarchive's blocks go
/// in, compressed bytes go out (Folio's own gzip and zstd writers, which use
/// every job where libarchive's filters use one thread or unbounded buffers).
protocol CompressedOutput: AnyObject {
  /// The compressed bytes written to the descriptor so far.
  var bytesWritten: Int64 { get }

  /// Takes the next bytes of the stream.
  ///
  /// - Parameter bytes: The bytes.
  /// - Throws: ``PackagingError`` when compressing or writing fails.
  func write(_ bytes: UnsafeRawBufferPointer) throws

  /// Compresses and writes what is left, and ends the stream.
  ///
  /// - Throws: ``PackagingError`` when compressing or writing fails.
  func finish() throws

  /// Stops without writing anything more.
  func abandon()
}
