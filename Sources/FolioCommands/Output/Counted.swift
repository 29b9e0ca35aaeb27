/// A count with its noun agreeing in number: `1 file`, `2 files`, `1,204 symbolic links`.
enum Counted {
  /// The count (grouped by thousands) and the noun, singular for exactly one.
  ///
  /// - Parameters:
  ///   - count: How many.
  ///   - singular: The noun for one (`file`).
  ///   - plural: The noun for any other count; `singular` + `s` when not given.
  /// - Returns: `1 file`, `0 files`, `12,345 files`.
  static func phrase(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(ProgressDisplay.count(count)) \(count == 1 ? singular : plural ?? singular + "s")"
  }
}
