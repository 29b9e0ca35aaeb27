extension PropertyListValue {
  /// The value as Foundation and `plutil` read it: each dictionary's repeated keys reduced to
  /// one entry at the key's first position, holding the last value (or the first, with
  /// `keepingFirst`, as Foundation reads binary property lists).
  ///
  /// Readers keep repeated keys so that validators can point at them (and warn); anything that
  /// writes a property list for another program writes this form, so every reader sees the
  /// same dictionary. ``PropertyListDocument/rootWithUniqueKeys`` picks the rule for the
  /// format the document was read from.
  ///
  /// - Parameter keepingFirst: Whether the first value of a repeated key wins instead of the
  ///   last.
  /// - Returns: The value with unique keys in every dictionary, at any depth; locations kept.
  public func uniquingKeys(keepingFirst: Bool = false) -> PropertyListValue {
    switch content {
    case .dictionary(let entries):
      var position: [String: Int] = [:]
      var unique: [DictionaryEntry] = []
      unique.reserveCapacity(entries.count)
      for entry in entries {
        if keepingFirst, position[entry.key] != nil { continue }
        var cleaned = entry
        cleaned.value = entry.value.uniquingKeys(keepingFirst: keepingFirst)
        if let index = position[entry.key] {
          unique[index].value = cleaned.value
        } else {
          position[entry.key] = unique.count
          unique.append(cleaned)
        }
      }
      return PropertyListValue(.dictionary(unique), location: location)
    case .array(let items):
      return PropertyListValue(
        .array(items.map { $0.uniquingKeys(keepingFirst: keepingFirst) }), location: location)
    default:
      return self
    }
  }
}

extension PropertyListFormat {
  /// Whether Foundation keeps the first value of a key repeated in a dictionary of this format.
  ///
  /// Foundation's XML and JSON readers store each value as they meet it, so the last one
  /// wins; its binary reader builds each dictionary at once and keeps the first.
  public var keepsFirstRepeatedKey: Bool { self == .binary }
}

extension PropertyListDocument {
  /// The root as Foundation reads this document: each repeated key once, with the value
  /// Foundation keeps for the document's format (see
  /// ``PropertyListFormat/keepsFirstRepeatedKey``).
  public var rootWithUniqueKeys: PropertyListValue {
    diagnostics.contains { $0.code == Diagnostic.duplicateKeyCode }
      ? root.uniquingKeys(keepingFirst: format.keepsFirstRepeatedKey) : root
  }
}
