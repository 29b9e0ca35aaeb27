import Testing

@testable import Archives

@Suite struct PathTableTests {
  private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func everyPathRecordedIsFoundWithItsNodeAfterTheTableGrows() {
    var table = PathTable()
    for number in 0..<20_000 {
      table.set(number % 2 == 0 ? .file : .directory(explicit: true), at: bytes("pages/\(number)"))
    }
    #expect(table.count == 20_000)
    for number in 0..<20_000 {
      let expected: ExpansionLedger.Node = number % 2 == 0 ? .file : .directory(explicit: true)
      #expect(table[bytes("pages/\(number)")] == expected)
    }
    #expect(table[bytes("pages/20000")] == nil)
    #expect(table[bytes("pages/1 ")] == nil)
    #expect(table[bytes("")] == nil)
  }

  @Test func settingAPathAgainReplacesItsNodeAndKeepsOneRecord() {
    var table = PathTable()
    table.set(.directory(explicit: false), at: bytes("a"))
    table.set(.directory(explicit: true), at: bytes("a"))
    table.set(.symbolicLink(target: []), at: bytes("a/l"))
    table.set(.symbolicLink(target: bytes("../b")), at: bytes("a/l"))
    #expect(table.count == 2)
    #expect(table[bytes("a")] == .directory(explicit: true))
    #expect(table[bytes("a/l")] == .symbolicLink(target: bytes("../b")))
  }

  @Test func aCopyIsUnchangedByWhatIsRecordedInTheOriginal() {
    var table = PathTable()
    table.set(.file, at: bytes("one"))
    let copy = table
    for number in 0..<100 { table.set(.file, at: bytes("more/\(number)")) }
    table.set(.directory(explicit: true), at: bytes("one"))
    #expect(copy.count == 1)
    #expect(copy[bytes("one")] == .file)
    #expect(copy[bytes("more/0")] == nil)
    #expect(table[bytes("one")] == .directory(explicit: true))
  }

  @Test func everyPathIsVisitedOnceAndTheVisitCanStop() {
    var table = PathTable()
    let names = (0..<300).map { "d/\($0)" } + ["é", "E\u{301}"]
    for name in names { table.set(.file, at: bytes(name)) }
    var seen: [String] = []
    table.forEachPath {
      seen.append(String(decoding: $0, as: UTF8.self))
      return true
    }
    #expect(seen.sorted() == names.sorted())
    var visits = 0
    table.forEachPath { _ in
      visits += 1
      return visits < 3
    }
    #expect(visits == 3)
  }

  @Test func aSlotHoldsAnOffsetPastFourGibibytesInSixteenBytes() {
    #expect(PathTable.slotByteCount == 16)
    #expect(PathTable.largestArena == 1 << 40)
    #expect(PathTable.longestPath == (1 << 24) - 1)
  }

  @Test func theLongestPathIsRecordedAndFound() {
    var table = PathTable()
    let long = [UInt8](repeating: UInt8(ascii: "a"), count: PathTable.longestPath)
    table.set(.file, at: bytes("short"))
    table.set(.directory(explicit: true), at: long)
    #expect(table[long] == .directory(explicit: true))
    #expect(table[bytes("short")] == .file)
    #expect(table.byteCount == PathTable.longestPath + 5)
  }

  @Test func aNameLongerThanTheTableTakesIsRefusedWhateverThePolicyAllows() throws {
    var policy = ExpansionPolicy()
    policy.maxNameLength = .max
    let name = EntryName(
      bytes: [UInt8](repeating: UInt8(ascii: "a"), count: PathTable.longestPath + 1))
    let error = #expect(throws: PackagingError.self) {
      _ = try ExpansionLedger.relativePath(of: name, policy: policy)
    }
    #expect(error?.code == .nameTooLong)
    #expect(error?.message.contains("more than the limit of 16777215") == true)
  }
}
