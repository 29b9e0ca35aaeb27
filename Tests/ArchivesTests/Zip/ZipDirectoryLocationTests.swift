import Archives
import FolioTestSupport
import Foundation
import Testing

/// Bytes around and inside a zip that signing tools, disk images and self-extractors leave:
/// read as unzip, Python and bsdtar read them, with a warning naming the bytes; a directory
/// whose offsets disagree with what is there is still refused.
@Suite struct ZipDirectoryLocationTests {
  /// Python writing a zip of a folder and two files to `OUT`, then changing its bytes with
  /// `change(data)` (a `bytes` → `bytes` function the case defines first).
  static func zipScript(_ change: String) -> String {
    """
    import struct, subprocess, zipfile
    \(change)
    with zipfile.ZipFile('OUT', 'w', zipfile.ZIP_DEFLATED) as z:
        z.writestr('dir/', b'')
        z.writestr('dir/a.txt', b'hello world ' * 50)
        z.writestr('b.txt', b'second')
    data = open('OUT', 'rb').read()
    open('OUT', 'wb').write(change(data))
    """
  }

  static let stub = "b'#!/bin/sh\\necho stub\\nexit 0\\n' + bytes(100)"

  /// Each layout, the change that makes it, and the warning code it must give.
  static let layouts: [(String, String, String)] = [
    ("bytes after the end record", "change = lambda d: d + b'appended junk'", "zip-trailing-data"),
    (
      "a signature block after the end record",
      "change = lambda d: d + bytes(4096) + b'SIGNATURE' * 100", "zip-trailing-data"
    ),
    (
      "a comment shorter than what follows",
      "change = lambda d: d[:-2] + struct.pack('<H', 5) + b'notes' + b'more bytes'",
      "zip-trailing-data"
    ),
    (
      "a comment the file cuts short",
      "change = lambda d: d[:-2] + struct.pack('<H', 40) + b'short'", "zip-comment-cut-short"
    ),
    (
      "a stub before and bytes after",
      "change = lambda d: \(stub) + d + b'appended junk'", "zip-trailing-data"
    ),
  ]

  @Test(arguments: layouts.map(\.0))
  func bytesAroundTheArchiveAreReadAsPeersReadThem(_ layout: String) async throws {
    let (_, change, code) = try #require(Self.layouts.first { $0.0 == layout })
    try await withTemporaryDirectory("zip-around") { folder in
      let result = try expectExpandsAsBsdtar(
        python: Self.zipScript(change), in: folder, layout)
      #expect(result.fileCount == 2)
      #expect(result.warnings.map(\.code) == [code], "\(result.warnings)")
      try Self.expectPeersRead(folder.appendingPathComponent("archive.zip"), layout)
    }
  }

  /// A self-extractor's stub with bytes after the archive, its offsets adjusted by
  /// `zip -A` or left relative to the archive.
  @Test(arguments: [false, true])
  func aSelfExtractorWithBytesAfterItExpands(_ adjusted: Bool) async throws {
    try await withTemporaryDirectory("zip-sfx-trailing") { folder in
      let adjust =
        adjusted ? "subprocess.run(['zip', '-qA', 'OUT'], check=True)\n" : ""
      let script =
        Self.zipScript("change = lambda d: \(Self.stub) + d") + "\n" + adjust
        + "open('OUT', 'ab').write(b'appended junk')\n"
      let result = try expectExpandsAsBsdtar(
        python: script, in: folder, adjusted ? "adjusted" : "unadjusted")
      #expect(result.fileCount == 2)
      let warning = try #require(result.warnings.first { $0.code == "zip-trailing-data" })
      #expect(warning.message.contains("13 bytes after the end-of-central-directory record"))
      try Self.expectPeersRead(folder.appendingPathComponent("archive.zip"), "sfx")
    }
  }

  /// A cpio whose last member is a zip, its trailer after the zip's end record, is the
  /// cpio, as bsdtar reads it: only a file that starts like no other archive is taken for
  /// a zip behind a stub.
  @Test func anArchiveEndingInAZipMemberIsThatArchive() async throws {
    try await withTemporaryDirectory("cpio-zip-member") { folder in
      let script = """
        import os, subprocess, zipfile
        os.makedirs('tree', exist_ok=True)
        open('tree/note.txt', 'w').write('cpio member')
        with zipfile.ZipFile('tree/inner.zip', 'w') as z:
            z.writestr('inside.txt', b'zip member')
        subprocess.run(['bsdtar', '--format', 'newc', '-cf', 'OUT', '-C', 'tree', 'note.txt',
                        'inner.zip'], check=True)
        """
      let result = try expectExpandsAsBsdtar(python: script, in: folder, "cpio")
      #expect(result.fileCount == 2)
      #expect(result.warnings.isEmpty, "\(result.warnings)")
    }
  }

  /// Extra-field areas ending with 1 to 3 bytes too few to be a field, in both headers.
  @Test(arguments: [1, 3])
  func paddingAfterTheLastExtraFieldIsSkipped(_ length: Int) async throws {
    try await withTemporaryDirectory("zip-extra-padding") { folder in
      let script = """
        import zipfile
        with zipfile.ZipFile('OUT', 'w', zipfile.ZIP_DEFLATED) as z:
            info = zipfile.ZipInfo('a.txt', (2020, 1, 1, 0, 0, 0))
            info.extra = b'\\xd9\\x35\\x02\\x00\\x04\\x00' + bytes(\(length))
            z.writestr(info, b'padded ' * 20)
            z.writestr('b.txt', b'plain')
        """
      let result = try expectExpandsAsBsdtar(python: script, in: folder, "\(length) bytes")
      #expect(result.fileCount == 2)
      let warning = try #require(result.warnings.first)
      #expect(warning.code == "zip-extra-field-padding")
      #expect(warning.message.contains("(\(length) in the local header of 'a.txt')"))
      try Self.expectPeersRead(folder.appendingPathComponent("archive.zip"), "padding")
    }
  }

  /// What is still refused: a directory the end record misplaces behind trailing bytes, an
  /// extra field running past its header (unzip, Python and bsdtar refuse it too), and an
  /// end record inside another's comment followed by bytes.
  static let refusals: [(String, String)] = [
    (
      "directory offset off by 4 with bytes after",
      """
      def change(d):
          at = d.rfind(b'PK\\x05\\x06')
          offset = struct.unpack_from('<I', d, at + 16)[0]
          return d[:at + 16] + struct.pack('<I', offset + 4) + d[at + 20:] + b'junk'
      """
    ),
    (
      "an end record inside a comment, then bytes",
      """
      def change(d):
          at = d.rfind(b'PK\\x05\\x06')
          decoy = struct.pack('<IHHHHIIH', 0x06054B50, 0, 0, 0, 0, 0, 0, 0)
          comment = b'xx' + decoy + b'yy'
          return d[:at + 20] + struct.pack('<H', len(comment)) + comment + b'junk'
      """
    ),
  ]

  @Test(arguments: refusals.map(\.0))
  func aDirectoryThatDisagreesIsStillRefused(_ layout: String) async throws {
    let change = try #require(Self.refusals.first { $0.0 == layout }?.1)
    try await withTemporaryDirectory("zip-around-refused") { folder in
      let archive = folder.appendingPathComponent("archive.zip")
      let script = Self.zipScript(change).replacingOccurrences(of: "OUT", with: archive.path)
      let made = try runProcess("python3", ["-c", script])
      try #require(made.status == 0, "\(made.errorText)")
      let error = #expect(throws: PackagingError.self) {
        _ = try Expander.expandSynchronously(
          archive, into: folder.appendingPathComponent("ours"))
      }
      #expect(error?.code == .malformedZip, "\(String(describing: error))")
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ours").path))
    }
  }

  @Test func anExtraFieldRunningPastItsHeaderIsStillRefused() async throws {
    try await withTemporaryDirectory("zip-extra-overrun") { folder in
      let archive = folder.appendingPathComponent("archive.zip")
      let script = """
        import zipfile
        with zipfile.ZipFile('\(archive.path)', 'w') as z:
            info = zipfile.ZipInfo('a.txt', (2020, 1, 1, 0, 0, 0))
            info.extra = b'\\x55\\x54\\x20\\x00\\x01'
            z.writestr(info, b'data')
        """
      let made = try runProcess("python3", ["-c", script])
      try #require(made.status == 0, "\(made.errorText)")
      let error = #expect(throws: PackagingError.self) {
        _ = try Expander.expandSynchronously(
          archive, into: folder.appendingPathComponent("ours"))
      }
      #expect(error?.code == .malformedZip, "\(String(describing: error))")
    }
  }

  /// unzip and Python's zipfile read every entry and find their CRC-32s right (unzip's
  /// status 1 is its warning, "extra bytes at beginning", with every entry read).
  static func expectPeersRead(
    _ archive: URL, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let unzip = try runProcess("unzip", ["-tq", archive.path])
    #expect(
      unzip.status == 0 || unzip.status == 1, "\(label): unzip: \(unzip.errorText)",
      sourceLocation: sourceLocation)
    let python = try runProcess(
      "python3",
      [
        "-c", "import zipfile, sys; sys.exit(zipfile.ZipFile(sys.argv[1]).testzip() is not None)",
        archive.path,
      ])
    #expect(
      python.status == 0, "\(label): zipfile: \(python.errorText)", sourceLocation: sourceLocation)
  }
}
