import Testing

@testable import Archives

@Suite struct ByteArenaTests {
  @Test func bytesAppendedBeforeGrowingAreReadBackAfterIt() {
    let arena = ByteArena(capacity: 16)
    var offsets: [(offset: Int, text: String)] = []
    for number in 0..<5_000 {
      let text = "page-\(number).txt"
      let offset = Array(text.utf8).withUnsafeBufferPointer { arena.append($0) }
      offsets.append((offset, text))
    }
    for (offset, text) in offsets {
      let bytes = arena.bytes(at: offset, length: text.utf8.count)
      #expect(String(decoding: bytes, as: UTF8.self) == text)
    }
    #expect(arena.count == offsets.reduce(0) { $0 + $1.text.utf8.count })
  }

  @Test func aTerminatorFollowsTheBytesAndCounts() {
    let arena = ByteArena()
    let first = Array("a".utf8).withUnsafeBufferPointer { arena.append($0, terminator: 0) }
    let second = Array("bc".utf8).withUnsafeBufferPointer { arena.append($0, terminator: 0) }
    #expect(first == 0)
    #expect(second == 2)
    #expect(Array(arena.bytes(at: 0, length: arena.count)) == [0x61, 0, 0x62, 0x63, 0])
  }

  @Test func aCopyKeepsItsBytesWhenTheOriginalGrows() {
    let arena = ByteArena()
    Array("kept".utf8).withUnsafeBufferPointer { _ = arena.append($0) }
    let copy = arena.copy()
    for _ in 0..<100 { Array("more".utf8).withUnsafeBufferPointer { _ = arena.append($0) } }
    #expect(copy.count == 4)
    #expect(String(decoding: copy.bytes(at: 0, length: 4), as: UTF8.self) == "kept")
  }
}
