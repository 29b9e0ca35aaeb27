import FolioTestSupport
import Foundation
import Glibc
import Testing

@testable import FolioSystem

@Suite struct ReadingFileTests {
  @Test func readsAFileInChunksToItsEnd() async throws {
    try await withTemporaryDirectory("reading") { folder in
      let path = folder.appendingPathComponent("data.bin").path
      let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let file = try ReadingFile(atPath: path)
      var read: [UInt8] = []
      var sizes: [Int] = []
      while true {
        let chunk = try file.read(upToCount: 65_536)
        if chunk.isEmpty { break }
        sizes.append(chunk.count)
        read += chunk
      }
      #expect(read == bytes)
      #expect(sizes == [65_536, 100_000 - 65_536])
    }
  }

  @Test func aMissingFileIsTheSystemsError() async throws {
    try await withTemporaryDirectory("reading") { folder in
      let absent = folder.appendingPathComponent("absent").path
      #expect(throws: SystemError(errno: ENOENT)) { try ReadingFile(atPath: absent) }
    }
  }

  @Test func aFolderFailsWhenRead() async throws {
    try await withTemporaryDirectory("reading") { folder in
      let file = try ReadingFile(atPath: folder.path)
      #expect(throws: SystemError(errno: EISDIR)) { try file.read(upToCount: 16) }
    }
  }
}
