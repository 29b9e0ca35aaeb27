/// Which folded spellings (``ExpansionLedger/folded(_:)``: NFC, then lower case) were met,
/// kept as two hashes a path instead of the path: the folded spelling's, and the exact
/// spelling's of the first path that had it.
///
/// A path whose folded hash was met under another exact hash may collide with an earlier
/// one; hashes can match by chance, so the caller confirms against the spellings themselves
/// (the expansion ledger among its recorded paths, a pack in a replay of its names).
struct FoldedSpellingHashes {
  /// Folded spelling's hash → the exact hash of the first path with it.
  private var firstSpellings: [Int: Int] = [:]

  /// Creates an empty record.
  ///
  /// - Parameter expectedCount: How many paths will be recorded, when known: the table is
  ///   made that large at once instead of doubling (and rehashing) on the way.
  init(expectedCount: Int = 0) {
    firstSpellings.reserveCapacity(expectedCount)
  }

  /// Records a path.
  ///
  /// - Parameters:
  ///   - path: The path's bytes.
  ///   - folded: Its folded spelling.
  /// - Returns: Whether another spelling of the same folded path may have been recorded.
  mutating func record(_ path: [UInt8], folded: [UInt8]) -> Bool {
    path.withUnsafeBytes { path in
      folded.withUnsafeBytes { folded in record(path, folded: folded) }
    }
  }

  /// The hash a spelling is recorded under: its bytes hashed as ``PathKey`` hashes them,
  /// without an array.
  ///
  /// - Parameter spelling: A path's bytes, or its folded spelling's.
  /// - Returns: Its hash, as ``recordDistinct(foldedHash:)`` takes a folded one.
  static func hash(_ spelling: UnsafeRawBufferPointer) -> Int {
    var hasher = Hasher()
    hasher.combine(bytes: spelling)
    return hasher.finalize()
  }

  /// Records a path that is never recorded twice (a walk's), by its folded spelling's hash
  /// alone.
  ///
  /// - Parameter foldedHash: ``hash(_:)`` of the path's folded spelling.
  /// - Returns: Whether another path with the same folded spelling may have been recorded.
  mutating func recordDistinct(foldedHash: Int) -> Bool {
    firstSpellings.updateValue(0, forKey: foldedHash) != nil
  }

  /// Records a path, read in place.
  ///
  /// - Parameters:
  ///   - path: The path's bytes.
  ///   - folded: Its folded spelling.
  /// - Returns: Whether another spelling of the same folded path may have been recorded.
  mutating func record(_ path: UnsafeRawBufferPointer, folded: UnsafeRawBufferPointer) -> Bool {
    let foldedHash = Self.hash(folded)
    let exactHash = Self.hash(path)
    guard let first = firstSpellings[foldedHash] else {
      firstSpellings[foldedHash] = exactHash
      return false
    }
    return first != exactHash
  }
}
