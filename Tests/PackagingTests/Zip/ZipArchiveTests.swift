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

  /// A Python script writing one zip whose entries were made on `host` (version made by),
  /// with `\\` in their names as Windows tools write them.
  static func windowsZip(host: Int, names: [String]) -> String {
    // Python literals: each `\` doubled, so a name may end with one.
    let list = names.map { "'" + $0.replacingOccurrences(of: "\\", with: "\\\\") + "'" }
      .joined(separator: ", ")
    return """
      import zipfile
      with zipfile.ZipFile('OUT', 'w') as z:
          for name in [\(list)]:
              info = zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0))
              info.create_system = \(host)
              if name.endswith('\\\\'):
                  info.external_attr = 0x10
              z.writestr(info, b'' if name.endswith('\\\\') else name.encode())

      """
  }

  static let windowsNames = [#"arc\"#, #"arc\dir\"#, #"arc\dir\a.txt"#, #"arc\test"#]

  /// MS-DOS (0), NTFS (11) and VFAT (14) hosts: `\` is read as `/`, with one warning.
  @Test(arguments: [0, 11, 14])
  func windowsSeparatorsAreReadAsFolders(_ host: Int) async throws {
    try await withTemporaryDirectory("zip-windows-names") { folder in
      let script = Self.windowsZip(host: host, names: Self.windowsNames)
      let result = try expectExpandsAsBsdtar(python: script, in: folder, "host \(host)")
      #expect(result.fileCount == 2)
      #expect(result.warnings.map(\.code) == ["windows-separators"])
      #expect(
        result.warnings.first?.message.contains(#"4 entries written on Windows use '\'"#) == true,
        "\(result.warnings)")
      let text = try String(
        contentsOf: folder.appendingPathComponent("ours/arc/dir/a.txt"), encoding: .utf8)
      #expect(text == #"arc\dir\a.txt"#)
    }
  }

  /// Names that are refused: `\` from a Unix host, or beside a `/` (where it is a character,
  /// not a separator); and, once read as separators, `..`, absolute names and drive letters.
  static let refusedWindowsNames: [(String, Int, String, PackagingError.Code)] = [
    ("Unix host", 3, #"arc\test"#, .backslashInName),
    ("'\\' beside '/'", 0, #"arc/x\y.txt"#, .backslashInName),
    ("'..' component", 0, #"arc\..\..\evil.txt"#, .parentComponent),
    ("absolute", 11, #"\etc\evil.txt"#, .absolutePath),
    ("UNC path", 11, #"\\server\share\evil.txt"#, .absolutePath),
    ("drive letter", 0, #"C:\evil.txt"#, .absolutePath),
  ]

  @Test(arguments: refusedWindowsNames.map(\.0))
  func windowsNamesThatBreakARuleAreRefused(_ label: String) async throws {
    let (_, host, name, code) = try #require(Self.refusedWindowsNames.first { $0.0 == label })
    try await withTemporaryDirectory("zip-windows-refused") { folder in
      let archive = folder.appendingPathComponent("archive.zip")
      let script = Self.windowsZip(host: host, names: [name])
      let made = try runProcess(
        "python3", ["-c", script.replacingOccurrences(of: "OUT", with: archive.path)])
      try #require(made.status == 0, "\(made.errorText)")
      let error = #expect(throws: PackagingError.self) {
        _ = try Expander.expandSynchronously(
          archive, into: folder.appendingPathComponent("ours"))
      }
      #expect(error?.code == code, "\(label): \(String(describing: error))")
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ours").path))
    }
  }
}
