public import FolioSystem

/// A `<magic>` element of the shared MIME-info database: content matches and their priority.
///
/// The rule matches when any of its top-level ``matches`` does. Values of every match
/// type are kept as the bytes to find in the file (numbers already in the byte order their
/// type names), so one comparison serves them all.
public struct MagicRule: Sendable, Equatable {
  /// How much the rule is trusted against other rules and file-name globs, 0 to 100.
  public var priority: Int
  /// The alternatives; any one matching makes the rule match.
  public var matches: [MagicMatch]
  /// Where the `<magic>` element is.
  public var location: SourceLocation?

  /// The priority of a rule that names none.
  public static let defaultPriority = 50

  /// Creates a rule.
  ///
  /// - Parameters:
  ///   - priority: Its priority, 0 to 100.
  ///   - matches: The alternatives.
  ///   - location: Where it was written.
  public init(
    priority: Int = defaultPriority, matches: [MagicMatch], location: SourceLocation? = nil
  ) {
    self.priority = priority
    self.matches = matches
    self.location = location
  }

  /// Whether the rule matches a file's first bytes.
  ///
  /// - Parameter prefix: The file's first bytes.
  /// - Returns: `true` when one of the alternatives matches.
  public func matches(_ prefix: UnsafeRawBufferPointer) -> Bool {
    matches.contains { $0.matches(prefix) }
  }

  /// The furthest byte any match may read, so a reader knows how much to read.
  public var extent: Int {
    matches.map(\.extent).max() ?? 0
  }
}

/// A `<match>`: bytes at an offset (or anywhere in a range of offsets), with an optional mask,
/// and nested matches of which one must also match (`<a><b/><c/></a>` is a and (b or c)).
public struct MagicMatch: Sendable, Equatable {
  /// The `type` attribute, which says how `value` and `mask` are written.
  public enum Kind: String, Sendable, CaseIterable {
    /// A string with C escapes (`\x89PNG`, `\0`, `\777`).
    case string
    /// One byte.
    case byte
    /// A 16-bit number in the machine's byte order.
    case host16
    /// A 32-bit number in the machine's byte order.
    case host32
    /// A 16-bit big-endian number.
    case big16
    /// A 32-bit big-endian number.
    case big32
    /// A 16-bit little-endian number.
    case little16
    /// A 32-bit little-endian number.
    case little32
  }

  /// How the value was written.
  public var kind: Kind
  /// The first offset to try.
  public var offset: Int
  /// How many further offsets to try after the first (`offset="4:8"` is 4).
  public var rangeLength: Int
  /// The bytes to find.
  public var value: [UInt8]
  /// Bits of the file's bytes that count, as long as `value`; `nil` for all.
  public var mask: [UInt8]?
  /// Nested matches; when present, one of them must match too.
  public var children: [MagicMatch]

  /// Creates a match.
  ///
  /// - Parameters:
  ///   - kind: How the value was written.
  ///   - offset: The first offset to try.
  ///   - rangeLength: How many further offsets to try.
  ///   - value: The bytes to find.
  ///   - mask: The bits that count, as long as `value`.
  ///   - children: Nested matches.
  public init(
    kind: Kind, offset: Int, rangeLength: Int = 0, value: [UInt8], mask: [UInt8]? = nil,
    children: [MagicMatch] = []
  ) {
    self.kind = kind
    self.offset = offset
    self.rangeLength = rangeLength
    self.value = value
    self.mask = mask
    self.children = children
  }

  /// The furthest byte this match or a nested one may read.
  public var extent: Int {
    max(offset + rangeLength + value.count, children.map(\.extent).max() ?? 0)
  }

  /// Whether the match (and, when it has nested matches, one of them) holds for a prefix.
  ///
  /// A prefix too short for an offset does not match there.
  ///
  /// - Parameter prefix: The file's first bytes.
  /// - Returns: `true` when it matches.
  public func matches(_ prefix: UnsafeRawBufferPointer) -> Bool {
    guard matchesHere(prefix) else { return false }
    return children.isEmpty || children.contains { $0.matches(prefix) }
  }

  private func matchesHere(_ prefix: UnsafeRawBufferPointer) -> Bool {
    let count = value.count
    guard count > 0, offset >= 0, offset <= prefix.count - count else { return false }
    let last = min(offset + rangeLength, prefix.count - count)
    return value.withUnsafeBufferPointer { wanted in
      if let mask {
        return mask.withUnsafeBufferPointer { bits in
          for start in offset...last where Self.equal(prefix, at: start, wanted, mask: bits) {
            return true
          }
          return false
        }
      }
      let first = wanted[0]
      var start = offset
      while start <= last {
        // Find the first byte, then compare the rest: a range scan costs one pass.
        guard let hit = Self.firstIndex(of: first, in: prefix, from: start, through: last) else {
          return false
        }
        if Self.equal(prefix, at: hit, wanted) { return true }
        start = hit + 1
      }
      return false
    }
  }

  private static func firstIndex(
    of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, through last: Int
  ) -> Int? {
    var index = start
    while index <= last {
      if bytes[index] == byte { return index }
      index += 1
    }
    return nil
  }

  private static func equal(
    _ bytes: UnsafeRawBufferPointer, at start: Int, _ wanted: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    for index in 0..<wanted.count where bytes[start + index] != wanted[index] { return false }
    return true
  }

  private static func equal(
    _ bytes: UnsafeRawBufferPointer, at start: Int, _ wanted: UnsafeBufferPointer<UInt8>,
    mask: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    for index in 0..<wanted.count
    where bytes[start + index] & mask[index] != wanted[index] & mask[index] {
      return false
    }
    return true
  }
}
