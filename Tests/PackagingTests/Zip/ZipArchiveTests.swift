import FolioTestSupport
import Foundation
import Packaging
import Testing

/// Zip layouts that other tools write and read, expanded as bsdtar expands them; the checks
/// that keep hostile zips out still refuse what they refused.
@Suite struct ZipArchiveTests {
  /// A zip with a folder entry and a file in it, written by Python as macOS tools did
  /// (Unix host, folder mode), before any bytes are changed.
  static let folderZip = """
    with zipfile.ZipFile('OUT', 'w') as z:
        folder = zipfile.ZipInfo('dir/', (2020, 1, 1, 0, 0, 0))
        folder.create_system = 3
        folder.external_attr = (0o040755 << 16) | 0x10
        z.writestr(folder, b'')
        info = zipfile.ZipInfo('dir/a.txt', (2020, 1, 1, 0, 0, 0))
        info.create_system = 3
        info.external_attr = 0o100644 << 16
        z.writestr(info, b'hello\\n')

    """

  /// Where a folder entry's stated size is: the central directory only (the local header
  /// says 0), both, or both with a size too big for any budget.
  static let folderSizes: [(String, String)] = [
    ("central 68, local 0", "central('OUT', 'dir/', 24, '<I', 68)"),
    (
      "central and local 68",
      "central('OUT', 'dir/', 24, '<I', 68)\nlocal('OUT', 'dir/', 22, '<I', 68)"
    ),
    ("central 4 GiB - 2", "central('OUT', 'dir/', 24, '<I', 0xFFFF_FFFE)"),
  ]

  @Test(arguments: folderSizes.map(\.0))
  func folderEntriesWithAStatedSizeAndNoDataExpand(_ layout: String) async throws {
    let patch = try #require(Self.folderSizes.first { $0.0 == layout }?.1)
    try await withTemporaryDirectory("zip-sized-folder") { folder in
      let script = pythonZipPatching + Self.folderZip + patch
      let result = try expectExpandsAsBsdtar(python: script, in: folder, layout)
      #expect(result.fileCount == 1)
      #expect(result.directoryCount == 1)
    }
  }

  /// A file's stored size still governs the bytes written: one unlike its size is refused.
  @Test func aStoredFileWhoseSizesDisagreeIsStillRefused() async throws {
    try await withTemporaryDirectory("zip-sized-file") { folder in
      let archive = folder.appendingPathComponent("archive.zip")
      let script =
        pythonZipPatching + Self.folderZip
        + "central('OUT', 'dir/a.txt', 24, '<I', 68)\nlocal('OUT', 'dir/a.txt', 22, '<I', 68)"
      let made = try runProcess(
        "python3", ["-c", script.replacingOccurrences(of: "OUT", with: archive.path)])
      try #require(made.status == 0, "\(made.errorText)")
      let error = #expect(throws: PackagingError.self) {
        _ = try Expander.expandSynchronously(
          archive, into: folder.appendingPathComponent("ours"))
      }
      #expect(error?.code == .malformedZip, "\(String(describing: error))")
    }
  }
}
