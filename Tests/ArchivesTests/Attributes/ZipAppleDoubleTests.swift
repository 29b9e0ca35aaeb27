import FolioSystem
import FolioTestSupport
import Foundation
import Testing

@testable import Archives

/// Extended attributes through zip as macOS keeps them: AppleDouble `__MACOSX/…/._name`
/// entries, written by Folio and by a ditto-shaped zip built here from the format's
/// description (Apple's AppleSingle/AppleDouble v2 and xnu's `ATTR` block).
@Suite(.enabled(if: ExtendedAttributeTestTree.isSupported, "needs user xattrs"))
struct ZipAppleDoubleTests {
  /// Writes a zip the way `ditto -c -k --sequesterRsrc --keepParent` lays it out: the
  /// files, then `__MACOSX/` folders and a 4,096-byte `._` file per attributed item
  /// (Finder info with the `ATTR` block, then macOS's empty resource fork).
  static let dittoScript = #"""
    import struct, sys, zipfile

    def apple_double(attrs, finder_info=b'\0' * 32):
        names = [(n.encode() + b'\0', v) for n, v in attrs]
        entries_start = 0x54 + 36
        end = entries_start
        for n, _ in names:
            end = (end + 11 + len(n) + 3) & ~3
        data_start = end
        data = b''.join(v for _, v in names)
        total = data_start + len(data)
        rsrc_offset = 0xEE2
        blank = (struct.pack('>IIII', 0x100, 0x100, 0, 0x1E)
                 + b'This resource fork intentionally left blank   ')
        blank = blank.ljust(0x100, b'\0') + b'\0' * 0x1E
        out = struct.pack('>II', 0x00051607, 0x00020000) + b'Mac OS X        '
        out += struct.pack('>H', 2)
        out += struct.pack('>III', 9, 0x32, rsrc_offset - 0x32)
        out += struct.pack('>III', 2, rsrc_offset, len(blank))
        out += finder_info + b'\0\0'
        out += b'ATTR' + struct.pack('>IIII', 0, total, data_start, len(data)) + b'\0' * 12
        out += struct.pack('>HH', 0, len(names))
        offset = data_start
        for n, v in names:
            record = struct.pack('>IIHB', offset, len(v), 0, len(n)) + n
            out += record + b'\0' * ((-len(record)) % 4)
            offset += len(v)
        out += data
        out = out.ljust(rsrc_offset, b'\0') + blank
        assert len(out) == 4096
        return out

    with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
        z.writestr('Doc/', b'')
        z.writestr('Doc/page.txt', b'text')
        z.writestr('__MACOSX/', b'')
        z.writestr('__MACOSX/Doc/', b'')
        z.writestr('__MACOSX/Doc/._page.txt', apple_double(
            [('com.apple.metadata:_kMDItemUserTags', b'bplist00\xa1\x01URed\n6'),
             ('com.apple.quarantine', b'0081;5f0c;Safari;')],
            finder_info=b'TEXTttxt' + b'\0' * 24))
        z.writestr('__MACOSX/._Doc', apple_double([('org.example.folder', b'f')]))
    """#

  @Test func folioZipKeepsUserAttributesAsAppleDouble() async throws {
    try await withTemporaryDirectory("xattr-zip") { folder in
      let package = try ExtendedAttributeTestTree.make(in: folder)
      let archive = folder.appendingPathComponent("Pkg.zip")
      _ = try await Packer.pack(package, to: archive)
      let names = try runProcess(
        "python3",
        [
          "-c", "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
          archive.path,
        ])
      let entries = names.outputText.split(separator: "\n").map(String.init)
      #expect(
        entries == [
          "Pkg/", "Pkg/a.txt", "__MACOSX/Pkg/._a.txt", "Pkg/sub/", "__MACOSX/Pkg/._sub",
          "Pkg/sub/b.txt",
        ])
      let out = folder.appendingPathComponent("out")
      let result = try await Expander.expand(archive, into: out, progress: .untracked())
      #expect(result.skippedEntries.isEmpty)
      #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("__MACOSX").path))
      // A zip holds the user. attributes only (macOS has no place for an ACL).
      #expect(try ExtendedAttributeTestTree.differences(out, acl: false) == [])
    }
  }

  @Test func folioReadsItsOwnAppleDoubleBytes() throws {
    let double = AppleDouble(attributes: [
      ("com.apple.FinderInfo", Array(repeating: 7, count: 32)), ("a", [1, 2, 3]),
      ("com.apple.metadata:_kMDItemUserTags", Array(repeating: 9, count: 1000)),
      ("com.apple.ResourceFork", [UInt8](repeating: 1, count: 40)),
    ])
    let parsed = try AppleDouble(parsing: double.bytes)
    #expect(parsed == double)
  }

  @Test func dittoShapedZipExpandsWithAttributesAndNoMacOSXFolder() async throws {
    try await withTemporaryDirectory("xattr-ditto") { folder in
      let archive = folder.appendingPathComponent("Doc.zip")
      let made = try runProcess("python3", ["-c", Self.dittoScript, archive.path])
      #expect(made.status == 0, "\(made.errorText)")
      let out = folder.appendingPathComponent("out")
      _ = try await Expander.expand(archive, into: out, progress: .untracked())
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["page.txt"])
      let page = try ExtendedAttributeTestTree.attributes(
        of: out.appendingPathComponent("page.txt"))
      #expect(
        page == [
          "user.com.apple.metadata:_kMDItemUserTags": Array("bplist00".utf8) + [0xA1, 0x01]
            + Array("URed\n6".utf8),
          "user.com.apple.quarantine": Array("0081;5f0c;Safari;".utf8),
          "user.com.apple.FinderInfo": Array("TEXTttxt".utf8) + Array(repeating: 0, count: 24),
        ])
      #expect(
        try ExtendedAttributeTestTree.attributes(of: out) == ["user.org.example.folder": [0x66]])
    }
  }

  @Test func keepAppleDoubleWritesThemAsFiles() async throws {
    try await withTemporaryDirectory("xattr-ditto-keep") { folder in
      let archive = folder.appendingPathComponent("Doc.zip")
      let made = try runProcess("python3", ["-c", Self.dittoScript, archive.path])
      #expect(made.status == 0, "\(made.errorText)")
      let out = folder.appendingPathComponent("out")
      var policy = ExpansionPolicy.default
      policy.skipsAppleDouble = false
      _ = try await Expander.expand(archive, into: out, policy: policy, progress: .untracked())
      #expect(FileManager.default.fileExists(atPath: out.path + "/__MACOSX/Doc/._page.txt"))
      #expect(
        try ExtendedAttributeTestTree.attributes(of: out.appendingPathComponent("Doc/page.txt"))
          == [:])
    }
  }

  /// Every truncation of a real AppleDouble file, and lengths pointing past its end, are
  /// refused by the parser with a reason, never read out of bounds.
  @Test func damagedAppleDoubleIsRefusedWithAReason() throws {
    let good = AppleDouble(attributes: [("a.b", [1, 2, 3]), ("c", Array(repeating: 4, count: 9))])
      .bytes
    #expect(throws: Never.self) { try AppleDouble(parsing: good) }
    for length in 0..<good.count {
      let cut = Array(good[..<length])
      // A cut inside the values leaves records pointing past the end.
      do {
        let parsed = try AppleDouble(parsing: cut)
        Issue.record("a cut at \(length) parsed: \(parsed.attributes.map(\.name))")
      } catch {
        #expect(!error.reason.isEmpty)
      }
    }
    var huge = good
    huge[24] = 0xFF
    huge[25] = 0xFF
    #expect(throws: AppleDouble.Malformed.self) { try AppleDouble(parsing: huge) }
    var pastEnd = good
    pastEnd[0x78 + 4] = 0x7F  // the first attribute's length
    #expect(throws: AppleDouble.Malformed.self) { try AppleDouble(parsing: pastEnd) }
  }

  @Test func malformedAppleDoubleEntryIsSkippedWithAWarning() async throws {
    try await withTemporaryDirectory("xattr-bad-double") { folder in
      let archive = folder.appendingPathComponent("bad.zip")
      let script = """
        import sys, zipfile
        with zipfile.ZipFile(sys.argv[1], 'w') as z:
            z.writestr('Doc/page.txt', b'text')
            z.writestr('__MACOSX/Doc/._page.txt', b'\\x00\\x05\\x16\\x07\\x00\\x02\\x00\\x00' + b'x' * 10)
            z.writestr('__MACOSX/Doc/._gone.txt', open(sys.argv[2], 'rb').read())
        """
      let good = folder.appendingPathComponent("good")
      try Data(AppleDouble(attributes: [("a", [1])]).bytes).write(to: good)
      let made = try runProcess("python3", ["-c", script, archive.path, good.path])
      #expect(made.status == 0, "\(made.errorText)")
      let out = folder.appendingPathComponent("out")
      let result = try await Expander.expand(archive, into: out, progress: .untracked())
      #expect(
        result.warnings.map(\.code).sorted() == ["apple-double-malformed", "apple-double-orphan"])
      #expect(result.skippedEntries.count == 2)
      #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["page.txt"])
    }
  }
}
