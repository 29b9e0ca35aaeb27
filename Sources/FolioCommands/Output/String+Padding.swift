extension String {
  /// The text with spaces after it up to `width` characters.
  ///
  /// For the columns of help and lists; longer text is returned whole. Foundation's
  /// `padding(toLength:withPad:startingAt:)` is not in FoundationEssentials.
  func padded(to width: Int) -> String {
    let count = self.count
    return count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
