import FolioTestSupport
import Foundation
import Glibc
import Testing

@testable import Archives

/// ``ArchiveFile/copyBytes(at:count:to:targetName:)``: the reused entries' bytes, copied
/// file to file.
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
