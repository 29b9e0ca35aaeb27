import FolioTestSupport
import Foundation
import Testing

/// `expand ARCHIVE PATH…`, `--include`/`--exclude` on list and expand, `--exclude` on pack.
@Suite struct SelectionCommandTests {
  /// `Book.examplenotebook/` with pages, an attachment and a scratch file, and `Book.zip` of it.
  private func makeBook(in folder: URL) throws {
    let book = folder.appendingPathComponent("Book.examplenotebook")
    for path in [
      "metadata.json", "pages/a.txt", "pages/b.txt", "pages/old/c.txt", "attachments/x.png",
      "pages/scratch.tmp",
    ] {
      let url = book.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(path.utf8).write(to: url)
    }
    #expect(
      try runProcess("zip", ["-qr", "Book.zip", "Book.examplenotebook"], in: folder).status == 0)
  }

  private func files(under url: URL) -> [String] {
    let walker = FileManager.default.enumerator(atPath: url.path)
    var found: [String] = []
    while let path = walker?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(
        atPath: url.appendingPathComponent(path).path, isDirectory: &isDirectory)
      if !isDirectory.boolValue { found.append(path) }
    }
    return found.sorted()
  }

  @Test func expandTakesOnlyTheNamedEntriesAndWhatIsBelowThem() async throws {
    try await withTemporaryDirectory("select-paths") { folder in
      try makeBook(in: folder)
      let (status, _, errors) = await runFolio(
        ["expand", "Book.zip", "-o", "Out", "pages/old", "Book.examplenotebook/metadata.json"],
        in: folder)
      #expect(status == 0, "\(errors)")
      #expect(
        files(under: folder.appendingPathComponent("Out")) == ["metadata.json", "pages/old/c.txt"])
    }
  }

  @Test func expandNamingAMissingEntryFailsAndWritesNothing() async throws {
    try await withTemporaryDirectory("select-missing") { folder in
      try makeBook(in: folder)
      let (status, _, errors) = await runFolio(
        ["expand", "Book.zip", "-o", "Out", "pages", "nope.txt"], in: folder)
      #expect(status == 1)
      #expect(
        errors == "error: '\(folder.path)/Book.zip' has no entry 'nope.txt' [entry-not-found]\n")
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Out").path))
    }
  }

  @Test func expandIncludesAndExcludesByGlob() async throws {
    try await withTemporaryDirectory("select-globs") { folder in
      try makeBook(in: folder)
      let (status, _, errors) = await runFolio(
        [
          "expand", "Book.zip", "-o", "Out", "--include", "pages/**", "--exclude", "*.tmp",
          "--exclude", "old",
        ],
        in: folder)
      #expect(status == 0, "\(errors)")
      #expect(files(under: folder.appendingPathComponent("Out")) == ["pages/a.txt", "pages/b.txt"])
    }
  }

  @Test func expandUpdateWithASelectionIsAUsageError() async throws {
    try await withTemporaryDirectory("select-update") { folder in
      try makeBook(in: folder)
      let (status, _, errors) = await runFolio(
        ["expand", "Book.zip", "--update", "pages"], in: folder)
      #expect(status == 64)
      #expect(
        errors.hasPrefix(
          "error: --update cannot be combined with PATH, --include or --exclude: it would remove the entries left out\n"
        ))
    }
  }

  @Test func listFiltersByGlob() async throws {
    try await withTemporaryDirectory("select-list") { folder in
      try makeBook(in: folder)
      let (status, output, errors) = await runFolio(
        ["list", "Book.zip", "--names", "--include", "*.txt", "--exclude", "pages/old"],
        in: folder)
      #expect(status == 0, "\(errors)")
      #expect(
        output.split(separator: "\n").sorted() == [
          "Book.examplenotebook/pages/a.txt", "Book.examplenotebook/pages/b.txt",
        ])
    }
  }

  @Test func packLeavesOutExcludedPathsAndFolders() async throws {
    try await withTemporaryDirectory("select-pack") { folder in
      try makeBook(in: folder)
      let (status, _, errors) = await runFolio(
        [
          "pack", "Book.examplenotebook", "-o", "Book.tar", "--exclude", "*.tmp", "--exclude",
          "attachments", "-q",
        ],
        in: folder)
      #expect(status == 0, "\(errors)")
      let listing = try runProcess("bsdtar", ["-tf", "Book.tar"], in: folder).outputText
      #expect(
        listing.split(separator: "\n").sorted() == [
          "Book.examplenotebook/", "Book.examplenotebook/metadata.json",
          "Book.examplenotebook/pages/", "Book.examplenotebook/pages/a.txt",
          "Book.examplenotebook/pages/b.txt", "Book.examplenotebook/pages/old/",
          "Book.examplenotebook/pages/old/c.txt",
        ])
    }
  }

  @Test func badGlobIsAUsageErrorNamingIt() async throws {
    try await withTemporaryDirectory("select-bad") { folder in
      let (status, _, errors) = await runFolio(["list", "x.zip", "--exclude", "[a"], in: folder)
      #expect(status == 64)
      #expect(errors.hasPrefix("error: the pattern '[a' has a '[' without its ']'\n"))
    }
  }
}
