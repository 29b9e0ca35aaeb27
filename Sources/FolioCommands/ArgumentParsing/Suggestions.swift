/// "Did you mean …?": the valid words closest to a mistyped one.
///
/// Distance is optimal string alignment (Levenshtein with adjacent
/// transpositions, so `pakc` is one step from `pack`), as git and
/// swift-argument-parser measure it; a word is suggested when it is at most a
/// third of the typed word's length away (at least 1, at most 3 steps), or
/// when it starts with what was typed.
enum Suggestions {
  /// The closest candidates, nearest first.
  ///
  /// - Parameters:
  ///   - word: What the user typed.
  ///   - candidates: The valid words.
  ///   - limit: How many to return at most.
  /// - Returns: Up to `limit` of the nearest candidates (those at the smallest
  ///   distance found), in candidate order.
  static func closest(to word: String, among candidates: [String], limit: Int = 3) -> [String] {
    let typed = Array(word.lowercased())
    guard !typed.isEmpty else { return [] }
    let allowed = min(3, max(1, typed.count / 3))
    var scored: [(distance: Int, order: Int, word: String)] = []
    var seen: Set<String> = []
    for (order, candidate) in candidates.enumerated() where seen.insert(candidate).inserted {
      let lowered = Array(candidate.lowercased())
      let distance = Self.distance(typed, lowered)
      if distance <= allowed {
        scored.append((distance, order, candidate))
      } else if typed.count >= 3 && lowered.starts(with: typed) {
        scored.append((allowed + 1, order, candidate))
      }
    }
    scored.sort { ($0.distance, $0.order) < ($1.distance, $1.order) }
    // Only the nearest: `tar.gzz` suggests `tar.gz`, not every format two steps away.
    guard let best = scored.first?.distance else { return [] }
    return scored.prefix { $0.distance == best }.prefix(limit).map(\.word)
  }

  /// `; did you mean 'pack'?` (or `'a' or 'b'`), or nothing when no word is close.
  ///
  /// - Parameters:
  ///   - word: What the user typed.
  ///   - candidates: The valid words.
  ///   - prefix: Put before each suggestion (`--` for options).
  /// - Returns: The clause to append to a message, starting with `; `.
  static func didYouMean(_ word: String, among candidates: [String], prefix: String = "")
    -> String
  {
    let found = closest(to: word, among: candidates).map { "'\(prefix)\($0)'" }
    guard let last = found.last else { return "" }
    let list = found.count == 1 ? last : found.dropLast().joined(separator: ", ") + " or " + last
    return "; did you mean \(list)?"
  }

  /// Optimal string alignment distance between two words.
  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          best = min(best, previousPrevious[j - 2] + 1)
        }
        current[j] = best
      }
      (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    return previous[b.count]
  }
}
