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
        let header = try #require(kept.localHeader(at: index))
        let start = Int(entry.localHeaderOffset)
        #expect(Data(header) == bytes[start..<Int(entry.dataOffset)], "\(entry.name.display)")
      }
      let plain = try ZipArchive(file: try ArchiveFile(path: archive.path), maxEntries: 10)
      #expect(plain.localHeader(at: 0) == nil, "kept only when asked")
    }
  }
}
