/// How many terminal columns text takes: East Asian wide and fullwidth
/// characters two, combining marks and format characters none, others one.
///
/// A grapheme cluster (a letter with its accents, an emoji sequence joined
/// by U+200D) takes the width of its widest scalar, as terminals draw it in
/// one cell or two. The tables are generated from Unicode's data files by
/// `scripts/generate/display-width.py` (see `DisplayWidth+Table.swift`).
enum DisplayWidth {
  /// The columns one scalar takes: 0, 1 or 2 (control characters count 0;
  /// callers escape them before measuring).
  ///
  /// - Parameter scalar: The scalar.
  /// - Returns: Its width in columns.
  static func of(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    if value < 0x300 { return 1 }
    if contains(zeroWidthRanges, value) { return 0 }
    if value >= 0x1100 && contains(wideRanges, value) { return 2 }
    return 1
  }

  /// The columns a character takes: its widest scalar.
  ///
  /// - Parameter character: The grapheme cluster.
  /// - Returns: Its width in columns.
  static func of(_ character: Character) -> Int {
    var width = 0
    for scalar in character.unicodeScalars { width = max(width, of(scalar)) }
    // An emoji made wide by its presentation selector (U+FE0F after a narrow base).
    if width == 1 && character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    return width
  }

  /// The columns a string takes.
  ///
  /// - Parameter text: Text without control characters.
  /// - Returns: Its width in columns.
  static func of(_ text: some StringProtocol) -> Int {
    var width = 0
    for character in text { width += of(character) }
    return width
  }

  /// The longest prefix of `text` that fits in `columns`.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - columns: The columns available.
  /// - Returns: The prefix; a wide character that would straddle the edge is left out.
  static func prefix(_ text: String, fitting columns: Int) -> Substring {
    var used = 0
    var end = text.startIndex
    for index in text.indices {
      let width = of(text[index])
      if used + width > columns { break }
      used += width
      end = text.index(after: index)
    }
    return text[..<end]
  }

  /// The longest suffix of `text` that fits in `columns`.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - columns: The columns available.
  /// - Returns: The suffix.
  static func suffix(_ text: String, fitting columns: Int) -> Substring {
    var used = 0
    var start = text.endIndex
    while start > text.startIndex {
      let before = text.index(before: start)
      let width = of(text[before])
      if used + width > columns { break }
      used += width
      start = before
    }
    return text[start...]
  }

  /// Text shortened in the middle to fit: `pages/very-lo…-name.txt`.
  ///
  /// The end is kept longer than the start, since a path's last component
  /// names the file.
  ///
  /// - Parameters:
  ///   - text: The text, typically a path.
  ///   - columns: The columns available (at least 1).
  /// - Returns: `text` itself when it fits, else its start, `…` and its end.
  static func middleTruncated(_ text: String, fitting columns: Int) -> String {
    guard of(text) > columns else { return text }
    guard columns > 1 else { return columns == 1 ? "…" : "" }
    let room = columns - 1
    let head = room / 3
    let tailText = suffix(text, fitting: room - head)
    let headText = prefix(text, fitting: room - of(tailText))
    return headText + "…" + tailText
  }

  private static func contains(_ ranges: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
    var low = 0
    var high = ranges.count - 1
    while low <= high {
      let middle = (low + high) / 2
      let range = ranges[middle]
      if value < range.lowerBound {
        high = middle - 1
      } else if value > range.upperBound {
        low = middle + 1
      } else {
        return true
      }
    }
    return false
  }
}
