/// Finds the names a pack writes that differ only by case or Unicode normalisation, the
/// ones `expand` refuses (``ExpansionLedger``'s folding: NFC, then lower case).
///
/// It keeps one spelling per folded name, so a package whose names do not
/// collide costs one entry per name.
struct NameCollisionFinder {
  private var spellings: [PathKey: String] = [:]
  /// The collisions met, in order.
  private(set) var found: [NameCollision] = []

  /// Records a name written to the archive.
  ///
  /// - Parameter path: The entry's path in the archive.
  mutating func record(_ path: String) {
    let folded = PathKey(ExpansionLedger.folded(Array(path.utf8)))
    if let earlier = spellings[folded] {
      // Bytes, not `String ==`, which holds NFC and NFD spellings equal.
      if !earlier.utf8.elementsEqual(path.utf8) {
        found.append(NameCollision(first: earlier, second: path))
      }
    } else {
      spellings[folded] = path
    }
  }
}
