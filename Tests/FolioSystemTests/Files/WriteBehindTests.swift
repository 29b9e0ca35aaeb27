import FolioTestSupport
import Foundation
import Testing

@testable import FolioSystem

@Suite struct WriteBehindTests {
  /// What a write-behind asked to be written: descriptor, offset, length.
  private final class Requests: @unchecked Sendable {
    var made: [(descriptor: Int32, offset: Int64, count: Int64)] = []
  }

  @Test func startsEachStretchOnceWhenItHasGathered() {
    let requests = Requests()
    var writeBehind = WriteBehind(descriptor: 7) { requests.made.append(($0, $1, $2)) }
    let stretch = WriteBehind.stretch
    // 64 KiB writes: nothing until a whole stretch is there, then exactly that stretch.
    for _ in 0..<(stretch / 65536 - 1) { writeBehind.wrote(65536) }
    #expect(requests.made.isEmpty)
    writeBehind.wrote(65536)
    // One large write crosses the next boundary by 100 bytes: the stretch covers them all.
    writeBehind.wrote(stretch + 100)
    writeBehind.wrote(10)
    #expect(requests.made.map(\.descriptor) == [7, 7])
    #expect(requests.made.map(\.offset) == [0, Int64(stretch)])
    #expect(requests.made.map(\.count) == [Int64(stretch), Int64(stretch + 100)])
  }

  @Test func whatGatheredIsStartedWhenAskedAndOnlyOnce() {
    let requests = Requests()
    var writeBehind = WriteBehind(descriptor: 5) { requests.made.append(($0, $1, $2)) }
    writeBehind.startPending()  // nothing gathered: nothing started
    #expect(requests.made.isEmpty)
    writeBehind.wrote(1000)
    writeBehind.startPending()
    writeBehind.startPending()
    writeBehind.wrote(WriteBehind.stretch)
    #expect(requests.made.map(\.offset) == [0, 1000])
    #expect(requests.made.map(\.count) == [1000, Int64(WriteBehind.stretch)])
  }

  @Test func aSeekPastAHoleStartsTheNextStretchWhereTheWritingGoesOn() {
    let requests = Requests()
    var writeBehind = WriteBehind(descriptor: 3) { requests.made.append(($0, $1, $2)) }
    let stretch = WriteBehind.stretch
    writeBehind.wrote(1000)
    writeBehind.moved(to: 1000)  // no seek at all: nothing changes
    writeBehind.moved(to: 1 << 30)  // the 1000 bytes are left to the final flush
    writeBehind.wrote(stretch)
    #expect(requests.made.map(\.offset) == [1 << 30])
    #expect(requests.made.map(\.count) == [Int64(stretch)])
  }

  @Test func appendWritesAndNotesAndAFailedWriteNotesNothing() async throws {
    try await withTemporaryDirectory("write-behind-append") { folder in
      let path = folder.appendingPathComponent("archive.bin").path
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      try #require(descriptor >= 0)
      let requests = Requests()
      var writeBehind = WriteBehind(descriptor: descriptor) { requests.made.append(($0, $1, $2)) }
      let bytes = [UInt8](repeating: 7, count: WriteBehind.stretch)
      #expect(bytes.withUnsafeBytes { writeBehind.append($0) } == 0)
      #expect(requests.made.map(\.count) == [Int64(WriteBehind.stretch)])
      // A write that fails: the number now names /dev/null opened for reading (closing it
      // would let a test beside this one reuse the number and receive the write).
      let readOnly = open("/dev/null", O_RDONLY | O_CLOEXEC)
      try #require(readOnly >= 0 && dup2(readOnly, descriptor) == descriptor)
      close(readOnly)
      #expect(bytes.withUnsafeBytes { writeBehind.append($0) } == EBADF)
      #expect(requests.made.count == 1)
      close(descriptor)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
    }
  }

  @Test func aFileWrittenBehindReadsBackWhole() async throws {
    try await withTemporaryDirectory("write-behind") { folder in
      let path = folder.appendingPathComponent("archive.bin").path
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      try #require(descriptor >= 0)
      // The system's own sync_file_range, over three stretches and a tail.
      var writeBehind = WriteBehind(descriptor: descriptor)
      var chunk = [UInt8](repeating: 0, count: 1 << 20)
      for index in stride(from: 0, to: chunk.count, by: 4096) { chunk[index] = UInt8(index >> 12) }
      let rounds = 3 * WriteBehind.stretch / chunk.count + 1
      for round in 0..<rounds {
        chunk[1] = UInt8(round)  // each chunk told apart
        #expect(chunk.withUnsafeBytes { SystemCall.writeAll(descriptor, $0) } == 0)
        writeBehind.wrote(chunk.count)
      }
      #expect(fsync(descriptor) == 0)
      close(descriptor)
      let written = try Data(contentsOf: URL(fileURLWithPath: path))
      #expect(written.count == rounds * chunk.count)
      for round in 0..<rounds {
        chunk[1] = UInt8(round)
        #expect(
          written.subdata(in: (round * chunk.count)..<((round + 1) * chunk.count)) == Data(chunk))
      }
    }
  }

  @Test func aDescriptorThatIsNotAFileIsLeftAlone() throws {
    // A pipe cannot be written behind (ESPIPE); the writer goes on as if nothing happened.
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    var writeBehind = WriteBehind(descriptor: ends[1])
    writeBehind.wrote(WriteBehind.stretch)
    let byte: [UInt8] = [42]
    #expect(byte.withUnsafeBytes { SystemCall.writeAll(ends[1], $0) } == 0)
    var back: UInt8 = 0
    #expect(read(ends[0], &back, 1) == 1)
    #expect(back == 42)
  }
}
