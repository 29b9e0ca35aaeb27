import Testing

@testable import Archives

@Suite struct PathPatternTests {
  private func matches(_ pattern: String, _ path: String) throws -> Bool {
    try PathPattern(pattern).matches(path)
  }

  @Test func starStaysInsideOneComponent() throws {
    #expect(try matches("pages/*.txt", "pages/a.txt"))
    #expect(try !matches("pages/*.txt", "pages/sub/a.txt"))
    #expect(try matches("p*s/a.txt", "pages/a.txt"))
    #expect(try !matches("*.txt", "pages"))
  }

  @Test func patternWithoutSlashMatchesANameAtAnyDepth() throws {
    #expect(try matches("*.tmp", "a.tmp"))
    #expect(try matches("*.tmp", "pages/deep/a.tmp"))
    #expect(try matches(".DS_Store", "pages/.DS_Store"))
    #expect(try !matches("a.tmp", "pages/xa.tmp"))
  }

  @Test func patternWithSlashIsAnchored() throws {
    #expect(try matches("pages/a.txt", "pages/a.txt"))
    #expect(try !matches("pages/a.txt", "x/pages/a.txt"))
    #expect(try matches("/pages", "pages/a.txt"))
  }

  @Test func doubleStarMatchesAnyNumberOfComponents() throws {
    #expect(try matches("**/cache", "cache"))
    #expect(try matches("**/cache", "a/b/cache/x.bin"))
    #expect(try matches("pages/**/*.txt", "pages/a.txt"))
    #expect(try matches("pages/**/*.txt", "pages/x/y/a.txt"))
    #expect(try !matches("pages/**/*.txt", "other/a.txt"))
    #expect(try matches("build/**", "build/x"))
    #expect(try matches("a**b", "axxb"))
    #expect(try !matches("a**b", "ax/xb"))
  }

  @Test func matchingAFolderCoversEverythingInside() throws {
    #expect(try matches("pages", "pages/a.txt"))
    #expect(try matches("pages/", "pages/deep/a.txt"))
    #expect(try matches("attachments", "Notebook/attachments/x.png"))
  }

  @Test func questionMarkSetsAndEscapes() throws {
    #expect(try matches("page?.txt", "page1.txt"))
    #expect(try !matches("page?.txt", "page10.txt"))
    #expect(try matches("[ab]*.txt", "b1.txt"))
    #expect(try !matches("[!ab]*.txt", "b1.txt"))
    #expect(try matches("[^ab]*.txt", "c1.txt"))
    #expect(try matches("page[0-9].txt", "page7.txt"))
    #expect(try matches("[]x]", "]"))
    #expect(try matches("\\*.txt", "*.txt"))
    #expect(try !matches("\\*.txt", "a.txt"))
    #expect(try matches("笔记?.txt", "笔记本.txt"))
  }

  @Test func badPatternsAreRefusedNamingThem() {
    for pattern in ["", "/", "[abc", "a\\", "[z-a]"] {
      #expect {
        try PathPattern(pattern)
      } throws: { error in
        (error as? PackagingError)?.code == .invalidPattern
          && (error as? PackagingError)?.message.contains("'\(pattern)'") == true
      }
    }
  }

  @Test func selectionCombinesPathsInclusionsAndExclusions() throws {
    let selection = try PathSelection(
      paths: ["pages"], including: ["metadata.json"], excluding: ["*.tmp"])
    #expect(selection.selects(entryName: "Notebook.examplenotebook/pages/a.txt"))
    #expect(selection.selects(entryName: "Notebook.examplenotebook/metadata.json"))
    #expect(!selection.selects(entryName: "Notebook.examplenotebook/pages/a.tmp"))
    #expect(!selection.selects(entryName: "Notebook.examplenotebook/attachments/x.png"))
    #expect(selection.namedPath(selecting: "N/pages/a.txt") == "pages")
    #expect(selection.selects(packagePath: "pages/b.txt"))
    #expect(!selection.selects(packagePath: "other/pages/b.txt"))
    #expect(PathSelection.everything.selects(entryName: "anything"))
  }

  @Test func starsAndClassesAgreeWithTheGlobRules() throws {
    #expect(try matches("*a*b*c", "xaybzc"))
    #expect(try !matches("*a*b*c", "xaybzcd"))
    #expect(try matches("a*", "a"))
    #expect(try matches("*?[0-9]", "x7"))
    #expect(try !matches("*?[0-9]", "7"))
    #expect(try matches("**/**/x", "x"))
    #expect(try matches("a/**/**/b", "a/b"))
    #expect(try matches("a/**/b/**/c", "a/1/b/2/b/3/c"))
    #expect(try !matches("a/**/b/**/c", "a/1/b/2/b/3"))
    #expect(try matches("a/*/c", "a/b/c/d"))
    #expect(try !matches("a/*/c", "a/c"))
  }

  /// The worst cases of a backtracking matcher: many `*` (or `**`) that
  /// almost match a long name (or a deep path) and fail at the very end.
  @Test(arguments: [
    (String(repeating: "*a", count: 12) + "b", String(repeating: "a", count: 255)),
    (String(repeating: "*[a-c]", count: 16) + "?x", String(repeating: "b", count: 255)),
    ("p/" + String(repeating: "*a", count: 12) + "b", "p/" + String(repeating: "a", count: 255)),
    (
      String(repeating: "**/", count: 12) + "b/x",
      String(repeating: "a/", count: 400) + String(repeating: "b", count: 200)
    ),
    (
      String(repeating: "**/a*a*a*b/", count: 6) + "z",
      String(repeating: "aaaaaaaaab/", count: 93)
    ),
  ])
  func adversarialPatternsTakeStepsBoundedByPatternTimesName(pattern: String, path: String)
    throws
  {
    let compiled = try PathPattern(pattern)
    var steps = 0
    #expect(!compiled.matches(path, steps: &steps))
    let bound = 2 * (pattern.unicodeScalars.count + 1) * (path.unicodeScalars.count + 1)
    #expect(steps > 0)
    #expect(steps <= bound, "\(steps) steps for \(pattern.count) × \(path.count)")
  }
}
