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

/// One overwrite rule: an existing output is replaced only with `--force`.
@Suite struct OverwriteRuleTests {
  @Test func plistConvertRefusesAnExistingOutputWithoutForce() async throws {
    try await withTemporaryDirectory("overwrite-plist") { folder in
      try Data("<plist version=\"1.0\"><dict/></plist>".utf8).write(
        to: folder.appendingPathComponent("a.plist"))
      try Data("old".utf8).write(to: folder.appendingPathComponent("b.json"))
      let (status, _, errors) = await runFolio(
        ["plist", "convert", "--to", "json", "-o", "b.json", "a.plist"], in: folder)
      #expect(status == 1)
      #expect(errors == "error: 'b.json' already exists; use --force to replace it [output-exists]\n")
      #expect(try Data(contentsOf: folder.appendingPathComponent("b.json")) == Data("old".utf8))
      let (forced, _, _) = await runFolio(
        ["plist", "convert", "--to", "json", "-o", "b.json", "a.plist", "--force"], in: folder)
      #expect(forced == 0)
      #expect(
        try String(contentsOf: folder.appendingPathComponent("b.json"), encoding: .utf8) == "{}")
    }
  }

  @Test func packRefusesAnExistingOutputWithoutForce() async throws {
    try await withTemporaryDirectory("overwrite-pack") { folder in
      let package = folder.appendingPathComponent("P.examplenotebook")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
      try Data("a".utf8).write(to: package.appendingPathComponent("a.txt"))
      try Data("old".utf8).write(to: folder.appendingPathComponent("P.zip"))
      let (status, output, errors) = await runFolio(
        ["pack", "P.examplenotebook", "-o", "P.zip"], in: folder)
      #expect(status == 1)
      #expect(output.isEmpty)
      #expect(
        errors
          == "error: '\(folder.path)/P.zip' already exists; use --force to replace it [destination-exists]\n")
      #expect(try Data(contentsOf: folder.appendingPathComponent("P.zip")) == Data("old".utf8))
      let (forced, _, forceErrors) = await runFolio(
        ["pack", "P.examplenotebook", "-o", "P.zip", "--force", "-q"], in: folder)
      #expect(forced == 0, "\(forceErrors)")
      #expect(try Data(contentsOf: folder.appendingPathComponent("P.zip")).count > 3)
    }
  }
}

@Suite struct ExpandUpdateListingTests {
  @Test func updateListsWhatItRemoved() async throws {
    try await withTemporaryDirectory("update-removed") { folder in
      let package = folder.appendingPathComponent("P")
      try FileManager.default.createDirectory(
        at: package.appendingPathComponent("pages"), withIntermediateDirectories: true)
      try Data("a".utf8).write(to: package.appendingPathComponent("pages/a.txt"))
      #expect(await runFolio(["pack", "P", "-o", "P.zip", "-q"], in: folder).0 == 0)
      #expect(await runFolio(["expand", "P.zip", "-o", "Out", "-q"], in: folder).0 == 0)
      try Data("x".utf8).write(to: folder.appendingPathComponent("Out/pages/stale.txt"))
      try Data("y".utf8).write(to: folder.appendingPathComponent("Out/old.txt"))
      let (status, output, errors) = await runFolio(
        ["expand", "P.zip", "-o", "Out", "--update"], in: folder)
      #expect(status == 0, "\(errors)")
      let lines = output.split(separator: "\n").map(String.init)
      #expect(lines.prefix(2) == ["removed old.txt", "removed pages/stale.txt"])
      #expect(lines.last?.hasSuffix("; 1 unchanged file kept, 2 removed") == true, "\(lines)")
    }
  }
}
