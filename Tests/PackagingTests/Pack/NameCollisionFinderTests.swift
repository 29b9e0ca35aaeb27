import Testing

@testable import Packaging

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
