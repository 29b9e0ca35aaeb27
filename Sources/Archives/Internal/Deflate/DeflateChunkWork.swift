/// One chunk of a byte stream on its way through a worker: the 32 KiB before
/// it (the dictionary), the chunk, and its compressed form and CRC-32.
///
/// Exactly one thread touches it at a time, handed over through ``OrderedPipeline``.
final class DeflateChunkWork: @unchecked Sendable {
  /// The chunk size this work holds at most.
  let capacity: Int
  /// The dictionary, then the chunk.
  let input: UnsafeMutableRawBufferPointer
  let output: UnsafeMutableRawBufferPointer
  /// How many of the input's first bytes are dictionary.
  var dictionaryLength = 0
  /// How many bytes of chunk follow the dictionary.
  var length = 0
  /// Whether this chunk ends the stream.
  var finishing = false
  /// The stream, for messages.
  var name = ""

  // Results, set by the worker.
  var crc32: UInt32 = 0
  var compressedLength = 0
  var failure: (any Error)?

  /// Makes the buffers for chunks of up to `capacity` bytes.
  init(capacity: Int) {
    self.capacity = capacity
    input = .allocate(byteCount: DeflateStream.windowSize + capacity, alignment: 64)
    output = .allocate(
      byteCount: DeflateChunk.outputCapacity(forChunkOf: capacity), alignment: 64)
  }

  deinit {
    input.deallocate()
    output.deallocate()
  }

  /// The chunk's bytes.
  var chunk: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: input[dictionaryLength..<(dictionaryLength + length)])
  }

  /// The compressed chunk.
  var compressed: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: output[0..<compressedLength])
  }

  /// Computes the CRC-32 and compresses (a worker).
  ///
  /// - Parameter workspace: The worker's compressors.
  func process(_ workspace: CompressionWorkspace) {
    failure = nil
    crc32 = LibDeflate.crc32(0, chunk)
    do {
      compressedLength = try DeflateChunk.compress(
        chunk, dictionary: UnsafeRawBufferPointer(rebasing: input[0..<dictionaryLength]),
        into: output, finishing: finishing, workspace: workspace, name: name)
    } catch {
      failure = error
    }
  }
}
