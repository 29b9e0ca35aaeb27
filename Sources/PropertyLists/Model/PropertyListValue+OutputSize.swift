extension PropertyListValue {
  /// Whether writing the value out in full takes more than `limit` bytes, judged without
  /// writing it: the text of its strings, keys and data and `bytesPerValue` per value.
  ///
  /// A binary property list may reference one object from many places (one 1 MiB string
  /// 900,000 times), and the reader keeps that sharing; XML and JSON, and the work of any
  /// writer, spell every reference out. The walk stops as soon as the count passes the
  /// limit, so it costs at most the values it visits before then.
  ///
  /// - Parameters:
  ///   - limit: The most bytes allowed.
  ///   - bytesPerValue: What a writer takes for each value besides its text.
  ///   - bytesPerLevel: What it takes for each level a value is nested at (XML's tabs).
  /// - Returns: `true` when the value's written form passes `limit`.
  func expandsPast(_ limit: Int, bytesPerValue: Int, bytesPerLevel: Int = 0) -> Bool {
    var total = 0
    var pending: [(value: PropertyListValue, level: Int)] = [(self, 0)]
    while let (value, level) = pending.popLast() {
      switch value.content {
      case .dictionary(let entries):
        for entry in entries {
          total += entry.key.utf8.count
          pending.append((entry.value, level + 1))
        }
      case .array(let items): pending.append(contentsOf: items.map { ($0, level + 1) })
      case .string(let string): total += string.utf8.count
      case .data(let bytes): total += bytes.count
      default: break
      }
      total += bytesPerValue + level * bytesPerLevel
      if total > limit { return true }
    }
    return false
  }
}
