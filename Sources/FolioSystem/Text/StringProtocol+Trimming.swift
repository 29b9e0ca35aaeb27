// Trimming text at both ends: FoundationEssentials has no `trimmingCharacters(in:)` (it
// lives in corelibs Foundation with `CharacterSet`'s predefined sets).

extension StringProtocol {
  /// The text without the characters `isTrimmed` accepts at its start and its end.
  ///
  /// `\.isWhitespace` stands for Foundation's `.whitespacesAndNewlines`;
  /// `{ $0.isWhitespace && !$0.isNewline }` for `.whitespaces`.
  ///
  /// - Parameter isTrimmed: Whether a character at either end goes.
  /// - Returns: What is left between the first and the last character that stays.
  package func trimming(while isTrimmed: (Character) -> Bool) -> String {
    guard let first = firstIndex(where: { !isTrimmed($0) }),
      let last = lastIndex(where: { !isTrimmed($0) })
    else { return "" }
    return String(self[first...last])
  }
}
