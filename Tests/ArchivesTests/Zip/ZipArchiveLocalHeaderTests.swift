import FolioTestSupport
import Foundation
import Testing

@testable import Archives

/// The local headers ``ZipArchive`` keeps for `pack --update`, which copies an entry's
/// header with its data only when the header is the one it would write.
@Suite struct ZipArchiveLocalHeaderTests {
  @Test(.enabled(if: programExists("python3"), "needs Python"))
  func keptLocalHeadersAreTheFilesBytes() async throws {
    try await withTemporaryDirectory("zip-local-headers") { folder in
      let archive = folder.appendingPathComponent("peer.zip")
      let script = """
        import zipfile, sys
        with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
            z.writestr('a.txt', b'alpha ' * 100)
            info = zipfile.ZipInfo('dir/b.txt', (2021, 5, 6, 7, 8, 10))
            info.extra = b'\\x55\\x54\\x05\\x00\\x01\\x00\\x00\\x00\\x00'
            z.writestr(info, b'beta')
        """
      let made = try runProcess("python3", ["-c", script, archive.path])
      try #require(made.status == 0, "\(made.errorText)")
      let bytes = try Data(contentsOf: archive)

      let kept = try ZipArchive(
        file: try ArchiveFile(path: archive.path), maxEntries: 10, keepsLocalHeaders: true)
      #expect(kept.entryCount == 2)
      for index in 0..<kept.entryCount {
        let entry = kept.entry(at: index)
        var header = [UInt8](bytes[Int(entry.localHeaderOffset)..<Int(entry.dataOffset)])
        let same = header.withUnsafeBufferPointer { kept.hasLocalHeader(at: index, equalTo: $0) }
        #expect(same, "\(entry.name.display)")
        header[header.count - 1] ^= 0xFF
        let changed = header.withUnsafeBufferPointer {
          kept.hasLocalHeader(at: index, equalTo: $0)
        }
        #expect(!changed, "\(entry.name.display) with its last byte changed")
        let shorter = header.dropLast().withUnsafeBufferPointer {
          kept.hasLocalHeader(at: index, equalTo: $0)
        }
        #expect(!shorter, "\(entry.name.display) a byte short")
      }
      let plain = try ZipArchive(file: try ArchiveFile(path: archive.path), maxEntries: 10)
      let first = plain.entry(at: 0)
      let header = [UInt8](bytes[Int(first.localHeaderOffset)..<Int(first.dataOffset)])
      let known = header.withUnsafeBufferPointer { plain.hasLocalHeader(at: 0, equalTo: $0) }
      #expect(!known, "kept only when asked")
    }
  }
}
