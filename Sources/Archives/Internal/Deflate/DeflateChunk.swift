/// One chunk of a deflate stream cut into chunks that are compressed apart
/// and joined in order (pigz's way).
///
/// Each chunk but the last ends on a byte boundary (zlib's sync flush, or
/// stored blocks), and the next one starts a new block there; the last one
/// ends the stream. A chunk that looks random, or that deflate does not
/// shrink, is written as stored blocks instead, at 5 bytes per 64 KiB: no
/// chunk is ever larger than ``storedSize(_:)``. The output depends only on
/// the chunk, the bytes before it and the level, never on which thread did
/// the work.
enum DeflateChunk {
  /// The largest stored block (its length field is 16 bits).
  static let storedBlockLimit = 65535

  /// The size of `count` bytes written as stored blocks.
  ///
  /// - Parameter count: The chunk's length.
  /// - Returns: The bytes with their block headers.
  static func storedSize(_ count: Int) -> Int {
    count + 5 * max(1, (count + storedBlockLimit - 1) / storedBlockLimit)
  }

  /// The output buffer a chunk of `count` bytes needs.
  ///
  /// - Parameter count: The largest chunk.
  /// - Returns: Room for zlib's worst case and for stored blocks.
  static func outputCapacity(forChunkOf count: Int) -> Int {
    // zlib's deflateBound for a raw stream at the default memory level, plus its sync flush.
    let zlibBound = count + (count >> 12) + (count >> 14) + (count >> 25) + 13 + 16
    return max(storedSize(count), zlibBound)
  }

  /// Compresses one chunk.
  ///
  /// - Parameters:
  ///   - input: The chunk.
  ///   - dictionary: Up to 32 KiB of the bytes just before it (empty for the first chunk).
  ///   - output: At least ``outputCapacity(forChunkOf:)`` bytes.
  ///   - finishing: Whether this chunk ends the stream.
  ///   - workspace: The thread's compressors.
  ///   - name: The file or stream, for messages.
  /// - Returns: The compressed chunk's length.
  /// - Throws: ``PackagingErrorDomain/Code/compressorFailed`` when zlib fails.
  static func compress(
    _ input: UnsafeRawBufferPointer, dictionary: UnsafeRawBufferPointer,
    into output: UnsafeMutableRawBufferPointer, finishing: Bool, workspace: CompressionWorkspace,
    name: @autoclosure () -> String
  ) throws -> Int {
    let stored = storedSize(input.count)
    if workspace.probe.looksIncompressible(input) {
      return store(input, into: output, finishing: finishing)
    }
    let count = try workspace.chunkCompressor().compress(
      input, dictionary: dictionary, into: output, finishing: finishing, name: name())
    if count >= stored { return store(input, into: output, finishing: finishing) }
    return count
  }

  /// Writes a chunk as stored blocks, starting on a byte boundary.
  ///
  /// - Parameters:
  ///   - input: The chunk.
  ///   - output: At least ``storedSize(_:)`` bytes.
  ///   - finishing: Whether the last block ends the stream.
  /// - Returns: ``storedSize(_:)`` of the chunk.
  static func store(
    _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, finishing: Bool
  ) -> Int {
    var written = 0
    var offset = 0
    repeat {
      let length = min(storedBlockLimit, input.count - offset)
      let last = offset + length == input.count
      // BFINAL in bit 0, BTYPE 00, then padding to the byte boundary.
      output[written] = last && finishing ? 1 : 0
      output[written + 1] = UInt8(truncatingIfNeeded: length)
      output[written + 2] = UInt8(truncatingIfNeeded: length >> 8)
      output[written + 3] = ~UInt8(truncatingIfNeeded: length)
      output[written + 4] = ~UInt8(truncatingIfNeeded: length >> 8)
      written += 5
      if length > 0 {
        (output.baseAddress! + written).copyMemory(
          from: input.baseAddress! + offset, byteCount: length)
      }
      written += length
      offset += length
    } while offset < input.count
    return written
  }
}
