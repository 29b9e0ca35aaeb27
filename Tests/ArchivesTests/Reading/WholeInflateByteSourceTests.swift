import FolioTestSupport
import Foundation
import Testing

@testable import Archives

/// libdeflate inflates a small entry in one call; whatever is not a clean stream of the
/// declared size goes to zlib, so the errors are zlib's, word for word.
@Suite struct WholeInflateByteSourceTests {
  /// What reading a source gave: its bytes, or the error's message.
  enum Outcome: Equatable {
    case bytes([UInt8])
    case failure(String)

    func get() throws -> [UInt8] {
      guard case .bytes(let bytes) = self else { throw CancellationError() }
      return bytes
    }
  }

  private static let text = Array(
    String(repeating: "a page of a notebook, with words that repeat. ", count: 300).utf8)

  private static func deflated(_ data: [UInt8]) throws -> [UInt8] {
    try DeflateChunkTests.compressInChunks(data, chunk: 1 << 20, level: 6)
  }

  /// Reads `stream` through the whole-buffer source and through zlib alone, from a file.
  private func read(
    _ stream: [UInt8], declaredSize: Int
  ) async throws -> (whole: Outcome, zlib: Outcome, tookOver: Bool) {
    try await withTemporaryDirectory("whole-inflate") { folder in
      let path = folder.appendingPathComponent("entry.deflate").path
      try Data(stream).write(to: URL(fileURLWithPath: path))
      let file = try ArchiveFile(path: path)
      let length = Int64(stream.count)
      let whole = WholeInflateByteSource(
        FileRangeByteSource(file, offset: 0, length: length), compressedSize: length,
        declaredSize: Int64(declaredSize), context: "entry 'a.txt'",
        decompressors: DeflateDecompressorPool())
      let zlib = try InflateByteSource(
        FileRangeByteSource(file, offset: 0, length: length), format: .rawDeflate,
        context: "entry 'a.txt'")
      return (drain(whole), drain(zlib), whole.tookOverByZlib)
    }
  }

  private func drain(_ source: any ByteSource) -> Outcome {
    var bytes: [UInt8] = []
    do {
      while let chunk = try source.next() { bytes += chunk }
      return .bytes(bytes)
    } catch {
      return .failure("\(error)")
    }
  }

  @Test func aCleanStreamIsInflatedInOneCallWithoutZlib() async throws {
    let stream = try Self.deflated(Self.text)
    let (whole, zlib, tookOver) = try await read(stream, declaredSize: Self.text.count)
    #expect(try whole.get() == Self.text)
    #expect(try zlib.get() == Self.text)
    #expect(!tookOver)
  }

  @Test func aStreamShorterThanDeclaredIsHandedOnForTheReaderToRefuse() async throws {
    // The entry reader compares the bytes with the declared size; this source hands on
    // what the stream holds, as zlib does.
    let stream = try Self.deflated(Self.text)
    let (whole, _, tookOver) = try await read(stream, declaredSize: Self.text.count + 10)
    #expect(try whole.get() == Self.text)
    #expect(!tookOver)
  }

  /// Streams that are not clean: damaged, cut short, followed by other bytes.
  enum Damage: String, CaseIterable, Sendable {
    case damaged, truncated, trailingBytes

    func apply(to stream: [UInt8]) -> [UInt8] {
      switch self {
      case .damaged:
        var stream = stream
        for index in stride(from: 4, to: stream.count, by: 7) { stream[index] ^= 0x5A }
        return stream
      case .truncated: return Array(stream.dropLast(20))
      case .trailingBytes: return stream + [1, 2, 3]
      }
    }

    /// Words the message must hold.
    var expected: String {
      switch self {
      case .damaged: "entry 'a.txt'"
      case .truncated: "truncated"
      case .trailingBytes: "3 bytes before"
      }
    }
  }

  @Test(arguments: Damage.allCases)
  func aStreamThatIsNotCleanFailsWithZlibsMessage(_ damage: Damage) async throws {
    let stream = damage.apply(to: try Self.deflated(Self.text))
    let (whole, zlib, tookOver) = try await read(stream, declaredSize: Self.text.count)
    guard case .failure(let message) = whole else {
      Issue.record("\(damage) data was accepted")
      return
    }
    #expect(whole == zlib)
    #expect(message.contains(damage.expected))
    #expect(tookOver)
  }

  @Test func moreDataThanDeclaredGoesThroughZlibWhole() async throws {
    // A size lie: libdeflate has no room for it; zlib hands on every byte and the entry
    // reader stops at the declared size with its own message.
    let stream = try Self.deflated(Self.text)
    let (whole, _, tookOver) = try await read(stream, declaredSize: 100)
    #expect(try whole.get() == Self.text)
    #expect(tookOver)
  }
}
