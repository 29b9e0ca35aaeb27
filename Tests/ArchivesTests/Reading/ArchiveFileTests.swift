import FolioTestSupport
import Foundation
import Glibc
import Testing

@testable import Archives

/// ``ArchiveFile/copyBytes(at:count:to:targetOffset:targetName:)``: the reused entries'
/// bytes, copied file to file.
@Suite struct ArchiveFileTests {
  @Test func copiedBytesLandAtTheTargetsEndAndStopAtTheSourcesEnd() async throws {
    try await withTemporaryDirectory("archive-file-copy") { folder in
      let bytes = PackTestTrees.randomBytes(3 << 20, seed: 5)
      let sourceURL = folder.appendingPathComponent("source.bin")
      try bytes.write(to: sourceURL)
      let source = try ArchiveFile(path: sourceURL.path)
      let targetURL = folder.appendingPathComponent("target.bin")
      try Data("head".utf8).write(to: targetURL)
      let target = open(targetURL.path, O_WRONLY | O_APPEND)
      try #require(target >= 0)
      defer { close(target) }

      let copied = try source.copyBytes(
        at: 1_000, count: 2 << 20, to: target, targetName: targetURL.path)
      #expect(copied == 2 << 20)
      // Asked past the end: what there is.
      let rest = try source.copyBytes(
        at: Int64(bytes.count) - 10, count: 100, to: target, targetName: targetURL.path)
      #expect(rest == 10)

      let written = try Data(contentsOf: targetURL)
      #expect(written == Data("head".utf8) + bytes[1_000..<(1_000 + (2 << 20))] + bytes.suffix(10))
    }
  }

  /// At an offset, in the kernel or (on another file system) through the buffer, the copy
  /// leaves the target's file position where it was: `pack --update` copies on a thread of
  /// its own while the writing thread writes past the copy's place.
  @Test(arguments: ["same file system", "tmpfs"])
  func bytesCopiedAtAnOffsetLeaveTheTargetsPosition(_ place: String) async throws {
    try await withTemporaryDirectory("archive-file-copy-at") { folder in
      let bytes = PackTestTrees.randomBytes(300_000, seed: 6)
      let sourceURL = folder.appendingPathComponent("source.bin")
      try bytes.write(to: sourceURL)
      let source = try ArchiveFile(path: sourceURL.path)
      let targetFolder =
        place == "tmpfs" ? URL(fileURLWithPath: "/dev/shm") : folder
      let targetURL = targetFolder.appendingPathComponent("target-\(UUID().uuidString).bin")
      defer { unlink(targetURL.path) }
      let target = open(targetURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      try #require(target >= 0)
      defer { close(target) }

      let copied = try source.copyBytes(
        at: 1_000, count: 200_000, to: target, targetOffset: 10, targetName: targetURL.path)
      #expect(copied == 200_000)
      #expect(write(target, "head!", 5) == 5)  // at the position, still 0

      let written = try Data(contentsOf: targetURL)
      #expect(written.count == 200_010)
      #expect(written.prefix(10) == Data("head!".utf8) + Data(repeating: 0, count: 5))
      #expect(written.dropFirst(10) == bytes[1_000..<201_000])
    }
  }

  @Test func aTargetThatCannotBeWrittenFailsNamingBothFiles() async throws {
    try await withTemporaryDirectory("archive-file-copy-fails") { folder in
      let sourceURL = folder.appendingPathComponent("source.bin")
      try Data(repeating: 7, count: 4096).write(to: sourceURL)
      let source = try ArchiveFile(path: sourceURL.path)
      let readOnly = open(sourceURL.path, O_RDONLY)
      try #require(readOnly >= 0)
      defer { close(readOnly) }
      let error = try #require(throws: PackagingError.self) {
        try source.copyBytes(at: 0, count: 4096, to: readOnly, targetName: "out.zip")
      }
      #expect(error.code == .fileSystem)
      #expect(error.message.contains("'\(sourceURL.path)'"), "\(error.message)")
      #expect(error.message.contains("'out.zip'"), "\(error.message)")
    }
  }
}
