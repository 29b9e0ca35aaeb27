import Testing

@testable import Archives

@Suite struct DeflateDecompressorPoolTests {
  @Test func aDecompressorGivenBackIsLentAgain() throws {
    let pool = DeflateDecompressorPool()
    let first = try pool.withDecompressor { ObjectIdentifier($0) }
    let second = try pool.withDecompressor { ObjectIdentifier($0) }
    #expect(first == second)
  }

  @Test func borrowingsThatOverlapGetDifferentDecompressors() throws {
    let pool = DeflateDecompressorPool()
    let (outer, inner) = try pool.withDecompressor { outer in
      (ObjectIdentifier(outer), try pool.withDecompressor { ObjectIdentifier($0) })
    }
    #expect(outer != inner)
    // Both went back: two more overlapping borrowings need no third.
    let again = try pool.withDecompressor { outer in
      [ObjectIdentifier(outer), try pool.withDecompressor { ObjectIdentifier($0) }]
    }
    #expect(Set(again) == [outer, inner])
  }

  @Test func aDecompressorIsGivenBackWhenTheWorkThrows() throws {
    let pool = DeflateDecompressorPool()
    struct Failure: Error {}
    var lent: ObjectIdentifier?
    #expect(throws: Failure.self) {
      try pool.withDecompressor { decompressor in
        lent = ObjectIdentifier(decompressor)
        throw Failure()
      }
    }
    #expect(try pool.withDecompressor { ObjectIdentifier($0) } == lent)
  }
}
