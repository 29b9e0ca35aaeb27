import FolioTestSupport
import Foundation
import Testing

/// Whether the temporary folder keeps `user.` attributes.
private let userAttributesWork: Bool = {
  let script = """
    import os, tempfile
    with tempfile.NamedTemporaryFile() as f: os.setxattr(f.name, 'user.probe', b'1')
    """
  return (try? runProcess("python3", ["-c", script]).status) == 0
}()

/// `pack`, `expand` and `list` with extended attributes (issue 33 §1), the trees set up and
/// read back with Python's `os.setxattr`/`os.getxattr`, an oracle independent of Folio.
@Suite(.enabled(if: userAttributesWork, "needs user xattrs"))
struct ExtendedAttributeCommandTests {

  private func python(_ script: String, in folder: URL) throws -> String {
    let run = try runProcess("python3", ["-c", script], in: folder)
    #expect(run.status == 0, "\(run.errorText)")
    return run.outputText
  }

  private func makePackage(in folder: URL) throws {
    _ = try python(
      """
      import os
      os.makedirs('Pkg/sub')
      open('Pkg/a.txt', 'w').write('hello')
      os.setxattr('Pkg/a.txt', 'user.test', b'hello')
      os.setxattr('Pkg/a.txt', 'user.bin', b'\\x00\\xff')
      """, in: folder)
  }

  @Test func listShowsAttributesAndExpandSetsThem() async throws {
    try await withTemporaryDirectory("cli-xattr") { folder in
      try makePackage(in: folder)
      let (packed, _, packErrors) = await runFolio(["pack", "Pkg", "-o", "Pkg.tar"], in: folder)
      #expect(packed == 0, "\(packErrors)")
      let (listed, listing, _) = await runFolio(["list", "--xattrs", "Pkg.tar"], in: folder)
      #expect(listed == 0)
      let lines = listing.split(separator: "\n").map(String.init)
      let file = try #require(lines.firstIndex { $0.hasSuffix(" Pkg/a.txt") })
      #expect(
        Array(lines[file + 1...file + 2]) == ["    user.bin=0x00ff", "    user.test=\"hello\""])
      let (expanded, _, errors) = await runFolio(["expand", "Pkg.tar", "-o", "Out"], in: folder)
      #expect(expanded == 0, "\(errors)")
      let values = try python(
        "import os; print(sorted((n, os.getxattr('Out/a.txt', n)) for n in os.listxattr('Out/a.txt')))",
        in: folder)
      #expect(values == "[('user.bin', b'\\x00\\xff'), ('user.test', b'hello')]\n")
    }
  }

  @Test func jsonEventsCountTheAttributes() async throws {
    try await withTemporaryDirectory("cli-xattr-json") { folder in
      try makePackage(in: folder)
      let (packed, _, packEvents) = await runFolio(
        ["pack", "Pkg", "-o", "Pkg.tar", "--progress", "json"], in: folder)
      #expect(packed == 0, "\(packEvents)")
      let packDone = try #require(packEvents.split(separator: "\n").last)
      #expect(packDone.contains("\"event\":\"done\""))
      #expect(packDone.contains("\"extendedAttributes\":2"), "\(packDone)")
      let (expanded, _, events) = await runFolio(
        ["expand", "Pkg.tar", "-o", "Out", "--progress", "json"], in: folder)
      #expect(expanded == 0, "\(events)")
      let done = try #require(events.split(separator: "\n").last)
      #expect(done.contains("\"extendedAttributes\":2"), "\(done)")
    }
  }

  @Test func noXattrsLeavesThemOutBothWays() async throws {
    try await withTemporaryDirectory("cli-no-xattr") { folder in
      try makePackage(in: folder)
      _ = await runFolio(["pack", "Pkg", "-o", "Pkg.zip", "--no-xattrs"], in: folder)
      let names = try python(
        "import zipfile; print(zipfile.ZipFile('Pkg.zip').namelist())", in: folder)
      #expect(!names.contains("__MACOSX"))
      _ = await runFolio(["pack", "Pkg", "-o", "Pkg.tar"], in: folder)
      let (expanded, _, errors) = await runFolio(
        ["expand", "Pkg.tar", "-o", "Out", "--no-xattrs"], in: folder)
      #expect(expanded == 0, "\(errors)")
      #expect(try python("import os; print(os.listxattr('Out/a.txt'))", in: folder) == "[]\n")
    }
  }

  /// `--apple-double` is the default: a zip gets `__MACOSX/` entries; `--no-apple-double`
  /// packs a zip without them (and without counting attributes it did not store), while a
  /// tar still carries the attributes as pax records.
  @Test func noAppleDoubleLeavesThemOutOfAZipOnly() async throws {
    try await withTemporaryDirectory("cli-no-apple-double") { folder in
      try makePackage(in: folder)
      func names(_ zip: String) throws -> String {
        try python("import zipfile; print(zipfile.ZipFile('\(zip)').namelist())", in: folder)
      }
      let (packed, _, errors) = await runFolio(["pack", "Pkg", "-o", "With.zip"], in: folder)
      #expect(packed == 0, "\(errors)")
      #expect(try names("With.zip").contains("'__MACOSX/Pkg/._a.txt'"))
      let (plain, _, events) = await runFolio(
        ["pack", "Pkg", "-o", "Without.zip", "--no-apple-double", "--progress", "json"],
        in: folder)
      #expect(plain == 0, "\(events)")
      #expect(!(try names("Without.zip").contains("__MACOSX")))
      let done = try #require(events.split(separator: "\n").last)
      #expect(!done.contains("\"extendedAttributes\":2"), "\(done)")
      let (tarred, _, tarErrors) = await runFolio(
        ["pack", "Pkg", "-o", "Pkg.tar", "--no-apple-double"], in: folder)
      #expect(tarred == 0, "\(tarErrors)")
      let (expanded, _, expandErrors) = await runFolio(
        ["expand", "Pkg.tar", "-o", "Out"], in: folder)
      #expect(expanded == 0, "\(expandErrors)")
      let values = try python(
        "import os; print(sorted((n, os.getxattr('Out/a.txt', n)) for n in os.listxattr('Out/a.txt')))",
        in: folder)
      #expect(values == "[('user.bin', b'\\x00\\xff'), ('user.test', b'hello')]\n")
    }
  }

  /// ext4 keeps an inode's attributes in one block: a 60,000-byte value, within Folio's
  /// 64 KiB limit, is refused there (`ENOSPC`), which must be a warning naming the file
  /// and the attribute, not a failed expansion.
  @Test func anAttributeTheFileSystemRefusesIsAWarning() async throws {
    try await withTemporaryDirectory("cli-xattr-refused") { folder in
      let refused = try python(
        """
        import os
        open('probe', 'w').close()
        try:
            os.setxattr('probe', 'user.big', b'x' * 60000); print('kept')
        except OSError: print('refused')
        """, in: folder)
      try #require(refused == "refused\n", "this file system keeps 60,000-byte values")
      _ = try python(
        """
        import io, tarfile
        with tarfile.open('big.tar', 'w', format=tarfile.PAX_FORMAT) as out:
            info = tarfile.TarInfo('doc.txt')
            info.size = 2
            info.pax_headers = {'SCHILY.xattr.user.big': 'x' * 60000, 'SCHILY.xattr.user.small': 's'}
            out.addfile(info, io.BytesIO(b'hi'))
        """, in: folder)
      let (status, _, errors) = await runFolio(["expand", "big.tar", "-o", "Out"], in: folder)
      #expect(status == 0, "\(errors)")
      #expect(
        errors.contains(
          "extended attribute 'user.big' of 'doc.txt' was not set: No space left on device [extended-attribute-not-set]"
        ), "\(errors)")
      #expect(
        try python("import os; print(os.listxattr('Out/doc.txt'))", in: folder)
          == "['user.small']\n")
    }
  }
}
