import UniformTypes

/// One worker thread's compressors and probe, made when first needed and
/// used by that thread only.
final class CompressionWorkspace {
  /// The deflate level, 1–9.
  let level: Int
  /// Decides which entries are worth deflating.
  let probe: CompressibilityProbe
  private var wholeBuffer: DeflateCompressor?
  private var chunked: DeflateStream?

  /// Creates a workspace.
  ///
  /// - Parameters:
  ///   - level: The deflate level, 1–9.
  ///   - registry: The registry that types file names, for the probe; `nil` when no entry
  ///     has a name (a gzip stream).
  init(level: Int, registry: TypeRegistry?) {
    self.level = level
    probe = CompressibilityProbe(registry: registry)
  }

  /// libdeflate, for whole entries.
  ///
  /// - Throws: ``PackagingErrorDomain/Code/compressorFailed`` when it cannot be allocated.
  func wholeBufferCompressor() throws -> DeflateCompressor {
    if let wholeBuffer { return wholeBuffer }
    let made = try DeflateCompressor(level: level)
    wholeBuffer = made
    return made
  }

  /// zlib, for chunks of one stream.
  ///
  /// - Throws: ``PackagingErrorDomain/Code/compressorFailed`` when it cannot be allocated.
  func chunkCompressor() throws -> DeflateStream {
    if let chunked { return chunked }
    let made = try DeflateStream(level: level)
    chunked = made
    return made
  }
}
