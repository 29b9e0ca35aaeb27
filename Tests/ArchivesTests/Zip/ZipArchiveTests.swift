import Archives
import FolioTestSupport
import Foundation
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

  /// Runs a Python script writing `archive` (its `OUT`), then expands it into `folder`'s
  /// `ours`, which must fail.
  ///
  /// - Returns: The failure, or `nil` (recorded as an issue) when the expansion succeeded.
  static func expansionError(python script: String, archive: URL, in folder: URL) throws
    -> PackagingError?
  {
    let made = try runProcess(
      "python3", ["-c", script.replacingOccurrences(of: "OUT", with: archive.path)])
    try #require(made.status == 0, "\(made.errorText)")
    return #expect(throws: PackagingError.self) {
      _ = try Expander.expandSynchronously(archive, into: folder.appendingPathComponent("ours"))
    }
  }

  /// A file's stored size still governs the bytes written: one unlike its size is refused.
  @Test func aStoredFileWhoseSizesDisagreeIsStillRefused() async throws {
    try await withTemporaryDirectory("zip-sized-file") { folder in
      let archive = folder.appendingPathComponent("archive.zip")
      let script =
        pythonZipPatching + Self.folderZip
        + "central('OUT', 'dir/a.txt', 24, '<I', 68)\nlocal('OUT', 'dir/a.txt', 22, '<I', 68)"
      let error = try Self.expansionError(python: script, archive: archive, in: folder)
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
      let error = try Self.expansionError(python: script, archive: archive, in: folder)
      #expect(error?.code == code, "\(label): \(String(describing: error))")
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ours").path))
    }
  }

  /// A Python script writing a zip whose one entry has the CP437 name `caf\x82.txt` in its
  /// headers and an Info-ZIP Unicode Path field (0x7075) naming it `café.txt`, in the headers
  /// `fields` says (`both`, `central`, `local`: the other's field gets an unknown ID), with
  /// the CRC-32 of `crcOf` (the header name unless given).
  static func unicodePathZip(fields: String, crcOf: String = "legacy", path: String = "café.txt")
    -> String
  {
    """
    import struct, zipfile, zlib
    legacy = b'caf\\x82.txt'
    field = b'\\x01' + struct.pack('<I', zlib.crc32(\(crcOf))) + '\(path)'.encode()
    tag = struct.pack('<HH', 0x7075, len(field))
    with zipfile.ZipFile('OUT', 'w') as z:
        info = zipfile.ZipInfo('cafX.txt', (2020, 1, 1, 0, 0, 0))
        info.create_system = 0
        info.extra = tag + field
        z.writestr(info, b'hello')
    data = open('OUT', 'rb').read().replace(b'cafX.txt', legacy)
    at = {'central': data.find(tag), 'local': data.rfind(tag)}.get('\(fields)')
    if at is not None:
        data = data[:at] + b'\\x66\\x66' + data[at + 2:]
    open('OUT', 'wb').write(data)

    """
  }

  /// The field in both headers is read as bsdtar and unzip read it.
  @Test func theUnicodePathFieldNamesTheEntryAsBsdtarReadsIt() async throws {
    try await withTemporaryDirectory("zip-unicode-path") { folder in
      let script = Self.unicodePathZip(fields: "both")
      try expectExpandsAsBsdtar(python: script, in: folder, "0x7075 in both headers")
      #expect(
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("ours/café.txt").path))
    }
  }

  /// The field in one header only names the entry too: the headers agree once it is applied
  /// (unzip reads the central one and bsdtar the local one, so each reads one case so).
  @Test(arguments: ["central", "local"])
  func aUnicodePathFieldInOneHeaderNamesTheEntry(_ header: String) async throws {
    try await withTemporaryDirectory("zip-unicode-path-one") { folder in
      let archive = folder.appendingPathComponent("archive.zip")
      let script = Self.unicodePathZip(fields: header)
      let made = try runProcess(
        "python3", ["-c", script.replacingOccurrences(of: "OUT", with: archive.path)])
      try #require(made.status == 0, "\(made.errorText)")
      let ours = folder.appendingPathComponent("ours")
      _ = try Expander.expandSynchronously(
        archive, into: ours, policy: ExpansionPolicy(keepsTopFolder: true))
      let names = try FileManager.default.contentsOfDirectory(atPath: ours.path)
      #expect(names == ["café.txt"])
      let peer =
        header == "central" ? ("unzip", ["-q", archive.path]) : ("bsdtar", ["-xf", archive.path])
      let theirs = folder.appendingPathComponent("theirs")
      try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: false)
      let extracted = try runProcess(peer.0, peer.1, in: theirs)
      // unzip warns of the "mismatching local filename" it then ignores: status 1.
      #expect(extracted.status == 0 || peer.0 == "unzip" && extracted.status == 1)
      #expect(try FileManager.default.contentsOfDirectory(atPath: theirs.path) == names)
    }
  }

  /// A field whose CRC-32 is not the header name's (a tool renamed the entry and left the
  /// field) is ignored, as bsdtar ignores it.
  @Test func aUnicodePathFieldForAnotherNameIsIgnored() async throws {
    try await withTemporaryDirectory("zip-unicode-path-stale") { folder in
      let script = """
        import struct, zipfile, zlib
        field = b'\\x01' + struct.pack('<I', zlib.crc32(b'other')) + b'new.txt'
        with zipfile.ZipFile('OUT', 'w') as z:
            info = zipfile.ZipInfo('old.txt', (2020, 1, 1, 0, 0, 0))
            info.extra = struct.pack('<HH', 0x7075, len(field)) + field
            z.writestr(info, b'hello')
        """
      try expectExpandsAsBsdtar(python: script, in: folder, "stale 0x7075")
      #expect(
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("ours/old.txt").path))
    }
  }

  /// Headers whose fields both match but name different paths still disagree.
  @Test func headersWhoseUnicodePathsDifferAreRefused() async throws {
    try await withTemporaryDirectory("zip-unicode-path-differ") { folder in
      let archive = folder.appendingPathComponent("archive.zip")
      let script =
        Self.unicodePathZip(fields: "both", path: "cafe.txt")
        + "open('OUT', 'wb').write(data.replace(b'cafe.txt', b'evil.txt', 1))\n"
      let error = try Self.expansionError(python: script, archive: archive, in: folder)
      #expect(error?.code == .headerMismatch, "\(String(describing: error))")
    }
  }

  /// A local header naming another path than its central-directory record (the two are
  /// compared in place when neither has a Unicode Path field) is refused, naming both.
  @Test func aLocalHeaderNamingAnotherPathIsRefusedNamingIt() async throws {
    try await withTemporaryDirectory("zip-local-name-differs") { folder in
      let archive = folder.appendingPathComponent("archive.zip")
      let script = """
        import io, zipfile
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, 'w') as z:
            z.writestr('ok.txt', b'fine')
            z.writestr('good.txt', b'hello')
        data = buffer.getvalue()
        at = data.index(b'good.txt')  # the local header's copy comes first
        open('OUT', 'wb').write(data[:at] + b'evil.txt' + data[at + 8:])
        """
      let error = try Self.expansionError(python: script, archive: archive, in: folder)
      #expect(error?.code == .headerMismatch, "\(String(describing: error))")
      #expect(error?.message.contains("'good.txt'") == true, "\(String(describing: error))")
      #expect(error?.message.contains("name 'evil.txt'") == true, "\(String(describing: error))")
    }
  }

  /// A Python script writing a zip made on `host` whose names are stored in `encoding`
  /// without the UTF-8 flag (written as ASCII stand-ins of the same length, then replaced).
  static func legacyNamesZip(_ names: [String], encoding: String, host: Int) -> String {
    let list = names.map { "'\($0)'" }.joined(separator: ", ")
    return """
      import zipfile
      names = [\(list)]
      def stand_in(raw):
          return bytes(b if b < 128 else 0x58 for b in raw)
      with zipfile.ZipFile('OUT', 'w') as z:
          for name in names:
              info = zipfile.ZipInfo(stand_in(name.encode('\(encoding)')).decode(), (2020, 1, 1, 0, 0, 0))
              info.create_system = \(host)
              if name.endswith('/'):
                  info.external_attr = 0x10
              z.writestr(info, b'' if name.endswith('/') else name.encode())
      data = open('OUT', 'rb').read()
      for name in sorted(names, key=len, reverse=True):
          raw = name.encode('\(encoding)')
          data = data.replace(stand_in(raw), raw)
      open('OUT', 'wb').write(data)

      """
  }

  /// Names without the UTF-8 flag that are not UTF-8 are CP437, as the specification says
  /// (and bsdtar reads them with `hdrcharset=CP437`), with a warning saying so.
  @Test func namesWithoutTheUTF8FlagAreReadAsCP437() async throws {
    try await withTemporaryDirectory("zip-cp437-names") { folder in
      let script = Self.legacyNamesZip(
        ["top/", "top/café.txt", "top/Ünïcödé/", "top/Ünïcödé/ñ ½.txt"], encoding: "cp437",
        host: 0)
      let result = try expectExpandsAsBsdtar(
        python: script, in: folder, "CP437 names", hdrcharset: "CP437")
      #expect(result.fileCount == 2)
      #expect(result.warnings.map(\.code) == ["legacy-name-encoding"])
      #expect(
        result.warnings.first?.message.contains(
          #"3 entries' names without the UTF-8 flag are not UTF-8 and were read as CP437"#) == true,
        "\(result.warnings)")
      let text = try String(
        contentsOf: folder.appendingPathComponent("ours/top/Ünïcödé/ñ ½.txt"), encoding: .utf8)
      #expect(text == "top/Ünïcödé/ñ ½.txt")
    }
  }

  /// Names that are UTF-8 without the flag (Info-ZIP's zip on Linux, many tools) stay UTF-8,
  /// as bsdtar and unzip read them on Linux, with no warning.
  @Test func utf8NamesWithoutTheFlagStayUTF8() async throws {
    try await withTemporaryDirectory("zip-unflagged-utf8") { folder in
      let script = Self.legacyNamesZip(
        ["top/", "top/naïve.txt", "top/日本/", "top/日本/ок.txt"], encoding: "utf-8", host: 3)
      let result = try expectExpandsAsBsdtar(python: script, in: folder, "unflagged UTF-8")
      #expect(result.fileCount == 2)
      #expect(result.warnings.isEmpty, "\(result.warnings)")
      #expect(
        FileManager.default.fileExists(
          atPath: folder.appendingPathComponent("ours/top/日本/ок.txt").path))
    }
  }

  /// A name flagged UTF-8 that is not UTF-8 is still refused: no encoding is guessed for it.
  @Test func aFlaggedNameThatIsNotUTF8IsStillRefused() async throws {
    try await withTemporaryDirectory("zip-flagged-invalid") { folder in
      let archive = folder.appendingPathComponent("archive.zip")
      let script = """
        import zipfile
        with zipfile.ZipFile('OUT', 'w') as z:
            z.writestr(zipfile.ZipInfo('café.txt', (2020, 1, 1, 0, 0, 0)), b'x')
        data = open('OUT', 'rb').read()
        assert data.count('café.txt'.encode()) == 2
        open('OUT', 'wb').write(data.replace('café.txt'.encode(), b'caf\\x82\\x82.txt'))
        """
      let error = try Self.expansionError(python: script, archive: archive, in: folder)
      #expect(error?.code == .invalidNameEncoding, "\(String(describing: error))")
    }
  }

  /// Names as Windows tools wrote them in the system's code page, each read with the
  /// encoding named and with `auto`, as bsdtar reads them with `hdrcharset`.
  static let codePageNames: [(String, [String])] = [
    ("CP932", ["top/", "top/日本語.txt", "top/表計算/", "top/表計算/ソフト.txt"]),
    ("EUC-JP", ["top/", "top/日本語.txt", "top/かな/", "top/かな/カナ.txt"]),
    ("CP866", ["top/", "top/Привет.txt", "top/Документы/", "top/Документы/файл.txt"]),
    ("KOI8-R", ["top/", "top/Привет.txt", "top/Документы/", "top/Документы/файл.txt"]),
    ("CP437", ["top/", "top/café.txt", "top/Ünïcödé/", "top/Ünïcödé/ñandú.txt"]),
  ]

  @Test(arguments: codePageNames.map(\.0), ["named", "auto"])
  func codePageNamesAreReadInTheirEncoding(_ encoding: String, _ how: String) async throws {
    let names = try #require(Self.codePageNames.first { $0.0 == encoding }?.1)
    try await withTemporaryDirectory("zip-code-page-names") { folder in
      // Host 0: a CP932 trail byte may be 0x5C, which must not become a separator.
      let script = Self.legacyNamesZip(names, encoding: encoding.lowercased(), host: 0)
      var policy = ExpansionPolicy(keepsTopFolder: true)
      policy.nameEncoding = how == "auto" ? .automatic : try ZipNameEncoding(encoding)
      let result = try expectExpandsAsBsdtar(
        python: script, in: folder, "\(encoding) \(how)", policy: policy, hdrcharset: encoding)
      #expect(result.fileCount == 2)
      #expect(result.warnings.map(\.code) == ["legacy-name-encoding"])
      #expect(result.warnings.first?.message.contains("read as \(encoding)") == true)
      let last = try #require(names.last)
      let text = try String(
        contentsOf: folder.appendingPathComponent("ours/" + last), encoding: .utf8)
      #expect(text == last)
    }
  }

  /// `auto` keeps names that are all UTF-8 as they are, with no warning.
  @Test func automaticKeepsUTF8Names() async throws {
    try await withTemporaryDirectory("zip-auto-utf8") { folder in
      let script = Self.legacyNamesZip(
        ["top/", "top/日本語.txt", "top/Привет.txt"], encoding: "utf-8", host: 0)
      var policy = ExpansionPolicy(keepsTopFolder: true)
      policy.nameEncoding = .automatic
      let result = try expectExpandsAsBsdtar(
        python: script, in: folder, "auto UTF-8", policy: policy)
      #expect(result.warnings.isEmpty, "\(result.warnings)")
    }
  }

  /// PPMd (method 98, as 7-Zip writes it) is refused naming the tools that read it, which
  /// do: 7z and bsdtar expand the archive Folio refuses.
  @Test func aPPMdEntryIsRefusedNamingTheToolsThatReadIt() async throws {
    try await withTemporaryDirectory("zip-ppmd") { folder in
      let text = folder.appendingPathComponent("text.txt")
      try Data(String(repeating: "a line of text\n", count: 2000).utf8).write(to: text)
      let archive = folder.appendingPathComponent("archive.zip")
      let made = try runProcess(
        "7z", ["a", "-bd", "-tzip", "-mm=PPMd", archive.path, text.path], in: folder)
      try #require(made.status == 0, "\(made.errorText)")
      let error = #expect(throws: PackagingError.self) {
        _ = try Expander.expandSynchronously(
          archive, into: folder.appendingPathComponent("ours"))
      }
      #expect(error?.code == .unsupportedCompression, "\(String(describing: error))")
      #expect(error?.message.contains("compressed with PPMd") == true)
      #expect(error?.message.contains("(7z and bsdtar read it)") == true)
      for (tool, arguments) in [
        ("bsdtar", ["-xOf", archive.path]), ("7z", ["x", "-so", archive.path]),
      ] {
        let read = try runProcess(tool, arguments)
        #expect(
          read.status == 0 && read.standardOutput.count == 30000, "\(tool): \(read.errorText)")
      }
    }
  }

  /// A name the named encoding cannot read is refused; so is an encoding iconv lacks.
  @Test func aNameTheEncodingCannotReadIsRefused() async throws {
    try await withTemporaryDirectory("zip-wrong-encoding") { folder in
      let archive = folder.appendingPathComponent("archive.zip")
      // 0x82 0x2E (CP437 "é.") is no CP932 character: 0x82 leads a pair, 0x2E ends none.
      let script = Self.legacyNamesZip(["café.txt"], encoding: "cp437", host: 0)
      let made = try runProcess(
        "python3", ["-c", script.replacingOccurrences(of: "OUT", with: archive.path)])
      try #require(made.status == 0, "\(made.errorText)")
      var policy = ExpansionPolicy.default
      policy.nameEncoding = try ZipNameEncoding("CP932")
      let error = #expect(throws: PackagingError.self) {
        _ = try Expander.expandSynchronously(
          archive, into: folder.appendingPathComponent("ours"), policy: policy)
      }
      #expect(error?.code == .invalidNameEncoding, "\(String(describing: error))")
      #expect(error?.message.contains("not valid CP932") == true)
      let unknown = #expect(throws: PackagingError.self) {
        _ = try ZipNameEncoding("NO-SUCH-ENCODING")
      }
      #expect(unknown?.code == .unsupportedNameEncoding)
    }
  }
}
