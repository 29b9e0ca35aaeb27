/// Finds the names a pack writes that differ only by case or Unicode normalisation, the
/// ones `expand` refuses (``ExpansionLedger``'s folding: NFC, then lower case).
///
/// It keeps a hash of each name's folded spelling, not the names: a package of 20,000 files
/// held 6 MB of spellings before. A walk meets each name once, so a name whose folded hash
/// was met before is a suspect; ``collisions(replaying:)`` then finds the first spelling of
/// each suspect's folded name in a replay of the names, and drops a suspect whose hash
/// matched by chance, so only real collisions are reported.
struct NameCollisionFinder {
  private var foldedSpellings: FoldedSpellingHashes
  /// Names whose folded hash was met before under another spelling, in order.
  private(set) var suspects: [String] = []

  /// Creates a finder that has met no names.
  ///
  /// - Parameter expectedCount: How many names will be recorded, when known.
  init(expectedCount: Int = 0) {
    foldedSpellings = FoldedSpellingHashes(expectedCount: expectedCount)
  }

  /// Records a name written to the archive.
  ///
  /// - Parameter path: The entry's path in the archive, never recorded before: a walk meets
  ///   each path once, so only the folded spelling is hashed.
  mutating func record(_ path: String) {
    /// ASCII, nearly every name: folded on the stack and hashed in place, without the
    /// arrays a name cost.
    func foldedHash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
      guard bytes.isASCII else {
        return ExpansionLedger.folded(Array(bytes)).withUnsafeBytes {
          FoldedSpellingHashes.hash($0)
        }
      }
      return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { folded in
        ExpansionLedger.foldASCII(bytes, into: folded)
        return FoldedSpellingHashes.hash(UnsafeRawBufferPointer(folded))
      }
    }
    // A native string's bytes are read in place, without the copy `withUTF8` needs.
    let hash =
      path.utf8.withContiguousStorageIfAvailable(foldedHash)
      ?? {
        var copy = path
        return copy.withUTF8(foldedHash)
      }()
    if foldedSpellings.recordDistinct(foldedHash: hash) { suspects.append(path) }
  }

  /// The collisions, each suspect paired with the first name of its folded spelling.
  ///
  /// - Parameter paths: Replays the names recorded, in the same order (called only when
  ///   there are suspects).
  /// - Returns: The collisions, in the order their second names were met.
  func collisions(replaying paths: ((String) -> Void) throws -> Void) rethrows -> [NameCollision] {
    guard !suspects.isEmpty else { return [] }
    func folded(_ path: String) -> PathKey { PathKey(ExpansionLedger.folded(Array(path.utf8))) }
    let wanted = Set(suspects.map(folded))
    var firsts: [PathKey: String] = [:]
    try paths { path in
      let key = folded(path)
      if wanted.contains(key), firsts[key] == nil { firsts[key] = path }
    }
    return suspects.compactMap { second in
      // Bytes, not `String ==`, which holds NFC and NFD spellings equal.
      guard let first = firsts[folded(second)], !first.utf8.elementsEqual(second.utf8) else {
        return nil
      }
      return NameCollision(first: first, second: second)
    }
  }
}
