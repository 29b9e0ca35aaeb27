import Foundation
import Testing

@testable import Archives

/// Chunks compressed apart (each primed with the 32 KiB before it) join into
/// one deflate stream that an independent inflater (libdeflate's) reads back.
@Suite struct DeflateChunkTests {
  /// Text, then random bytes, then text again: some chunks deflate, some are stored.
  static func sample(count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    let words = Array("archive package document stream chunk flush window ".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count {
      if (bytes.count / 100_000) % 3 == 1 {
        bytes.append(UInt8.random(in: 0...255, using: &generator))
      } else {
        bytes.append(words[(bytes.count * 7 + bytes.count / 13) % words.count])
      }
    }
    return bytes
  }

  static func compressInChunks(_ data: [UInt8], chunk: Int, level: Int) throws -> [UInt8] {
    let workspace = CompressionWorkspace(level: level, registry: .system)
    var stream: [UInt8] = []
    var output = [UInt8](repeating: 0, count: DeflateChunk.outputCapacity(forChunkOf: chunk))
    var offset = 0
    repeat {
      let end = min(offset + chunk, data.count)
      let count = try data.withUnsafeBytes { bytes in
        try output.withUnsafeMutableBytes { target in
          try DeflateChunk.compress(
            UnsafeRawBufferPointer(rebasing: bytes[offset..<end]),
            dictionary: UnsafeRawBufferPointer(rebasing: bytes[max(0, offset - 32768)..<offset]),
            into: target, finishing: end == data.count, workspace: workspace, name: "sample")
        }
      }
      stream += output[0..<count]
      offset = end
    } while offset < data.count
    return stream
  }

  static func inflate(_ stream: [UInt8], size: Int) throws -> [UInt8] {
    var result = [UInt8](repeating: 0, count: size)
    let (consumed, produced) = try stream.withUnsafeBytes { input in
      try result.withUnsafeMutableBytes { output in
        try DeflateDecompressor().decompress(input, into: output, name: "sample")
      }
    }
    #expect(consumed == stream.count)
    #expect(produced == size)
    return result
  }

  @Test(arguments: [1, 6, 9])
  func chunksJoinIntoOneStreamThatInflatesToTheInput(level: Int) throws {
    let data = Self.sample(count: 700_000)
    let stream = try Self.compressInChunks(data, chunk: 128 * 1024, level: level)
    #expect(try Self.inflate(stream, size: data.count) == data)
    // The random 200,000 bytes are stored, the text deflated.
    #expect(stream.count < data.count / 2)
    #expect(stream.count > 200_000)
  }

  @Test func theDictionaryKeepsTheRatioOfOneStream() throws {
    let words = Array("the same few words again and again, chunk after chunk ".utf8)
    let data = (0..<600_000).map { words[($0 * 5 + $0 / 17) % words.count] }
    let chunked = try Self.compressInChunks(data, chunk: 128 * 1024, level: 6)
    let whole = try Self.compressInChunks(data, chunk: data.count, level: 6)
    #expect(try Self.inflate(chunked, size: data.count) == data)
    #expect(Double(chunked.count) <= Double(whole.count) * 1.01 + 64)
  }

  @Test func storedBlocksCoverEmptyAndExactMultiplesOfTheBlockLimit() throws {
    for count in [0, 1, 65535, 65536, 3 * 65535] {
      let data = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) }
      var output = [UInt8](repeating: 0, count: DeflateChunk.storedSize(count))
      let written = data.withUnsafeBytes { input in
        output.withUnsafeMutableBytes { DeflateChunk.store(input, into: $0, finishing: true) }
      }
      #expect(written == DeflateChunk.storedSize(count))
      #expect(try Self.inflate(output, size: count) == data)
    }
  }
}
