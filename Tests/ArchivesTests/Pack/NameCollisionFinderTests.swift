import Testing

@testable import Archives

@Suite struct NameCollisionFinderTests {
  private let names = [
    "Doc", "Doc/Index.html", "Doc/Pages", "Doc/caf\u{E9}.txt", "Doc/cafe\u{301}.txt",
    "Doc/index.html", "Doc/INDEX.HTML", "Doc/pages", "Doc/plain.txt",
  ]

  @Test func pairsEveryLaterSpellingWithTheFirstOfItsFoldedName() {
    var finder = NameCollisionFinder()
    for name in names { finder.record(name) }
    #expect(
      finder.suspects == ["Doc/cafe\u{301}.txt", "Doc/index.html", "Doc/INDEX.HTML", "Doc/pages"])
    let found = finder.collisions { visit in names.forEach(visit) }
    #expect(
      found.map { [$0.first, $0.second] } == [
        ["Doc/caf\u{E9}.txt", "Doc/cafe\u{301}.txt"], ["Doc/Index.html", "Doc/index.html"],
        ["Doc/Index.html", "Doc/INDEX.HTML"], ["Doc/Pages", "Doc/pages"],
      ])
  }

  @Test func namesThatDoNotCollideNeedNoReplay() {
    var finder = NameCollisionFinder()
    for index in 0..<10_000 { finder.record("pages/\(index).txt") }
    var replayed = false
    #expect(finder.collisions { _ in replayed = true }.isEmpty)
    #expect(!replayed)
  }

  @Test func aSuspectWithNoOtherSpellingInTheReplayIsDropped() {
    // As for two names whose hashes matched by chance: the replay finds no other spelling.
    var finder = NameCollisionFinder()
    finder.record("Read.me")
    finder.record("read.me")
    #expect(finder.collisions { visit in visit("read.me") }.isEmpty)
  }
}

@Suite struct FoldedSpellingTests {
  @Test func asciiNamesFoldAsTheUnicodePathFoldsThem() {
    // Every ASCII byte, alone and in a name: the fast path must agree with NFC + lowercased().
    for byte in UInt8(1)...0x7F {
      let name = [UInt8(ascii: "a"), byte, UInt8(ascii: "Z")]
      let general = Array(
        String(decoding: name, as: UTF8.self).precomposedStringWithCanonicalMapping.lowercased()
          .utf8)
      #expect(ExpansionLedger.folded(name) == general, "byte \(byte)")
    }
    #expect(ExpansionLedger.folded(Array("Doc/INDEX.Html".utf8)) == Array("doc/index.html".utf8))
    #expect(ExpansionLedger.folded([]) == [])
  }

  @Test func aKelvinSignFoldsToTheSameNameAsAnASCIIK() {
    // U+212A decomposes to "K": a non-ASCII name can fold to an ASCII one.
    #expect(
      ExpansionLedger.folded(Array("\u{212A}.txt".utf8))
        == ExpansionLedger.folded(Array("K.txt".utf8)))
  }
}
