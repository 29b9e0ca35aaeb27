/// A file-name pattern as `fnmatch(3)` reads the shared MIME-info database's globs: `*` any
/// run of characters, `?` one character, `[…]` one of a set (`[a-z]`, `[!0-9]`), anything
/// else itself.
///
/// Matching works on Unicode scalars and never backtracks further than the last `*`, so
/// its cost is bounded by the product of the two lengths (both bounded), whatever the
/// pattern.
struct GlobPattern: Sendable, Hashable {
  /// How a pattern can be looked up.
  enum Shape: Sendable, Equatable {
    /// No wildcard: the whole name (`Makefile`).
    case literal
    /// `*` followed by no wildcard: a suffix of the name (`*.tar.gz`, `*~`).
    case suffix
    /// Anything else, matched one by one (`*.[1-9]`, `README*`).
    case wildcard

    /// The shape of a pattern.
    init(_ pattern: String) {
      var sawWildcard = false
      for (index, scalar) in pattern.unicodeScalars.enumerated() {
        switch scalar {
        case "*" where index == 0: continue
        case "*", "?", "[":
          sawWildcard = true
        default: continue
        }
      }
      if sawWildcard {
        self = .wildcard
      } else {
        self = pattern.hasPrefix("*") ? .suffix : .literal
      }
    }
  }

  private enum Token: Sendable, Hashable {
    case scalar(Unicode.Scalar)
    case any
    case star
    case set(ranges: [ClosedRange<Unicode.Scalar>], negated: Bool)
  }

  private let tokens: [Token]
  /// Whether the pattern was folded to lower case for case-insensitive matching.
  let isFolded: Bool

  /// Compiles a pattern.
  ///
  /// - Parameters:
  ///   - pattern: The pattern.
  ///   - caseSensitive: Whether letter case must match; otherwise both sides are folded.
  init(_ pattern: String, caseSensitive: Bool) {
    let text = caseSensitive ? pattern : TypeIdentifier.foldCase(pattern)
    isFolded = !caseSensitive
    var tokens: [Token] = []
    let scalars = Array(text.unicodeScalars)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      switch scalar {
      case "*":
        if tokens.last != .star { tokens.append(.star) }
      case "?":
        tokens.append(.any)
      case "[":
        if let (set, next) = Self.parseSet(scalars, from: index) {
          tokens.append(set)
          index = next
        } else {
          tokens.append(.scalar("["))
        }
      case "\\" where index < scalars.count:
        tokens.append(.scalar(scalars[index]))
        index += 1
      default:
        tokens.append(.scalar(scalar))
      }
    }
    self.tokens = tokens
  }

  /// Reads `[…]` starting after the `[`; `nil` when it is not closed (then `[` is literal).
  private static func parseSet(_ scalars: [Unicode.Scalar], from start: Int) -> (Token, Int)? {
    var index = start
    var negated = false
    if index < scalars.count, scalars[index] == "!" || scalars[index] == "^" {
      negated = true
      index += 1
    }
    var ranges: [ClosedRange<Unicode.Scalar>] = []
    var first = true
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "]" && !first { return (.set(ranges: ranges, negated: negated), index + 1) }
      first = false
      if index + 2 < scalars.count, scalars[index + 1] == "-", scalars[index + 2] != "]" {
        let upper = scalars[index + 2]
        if scalar <= upper { ranges.append(scalar...upper) }
        index += 3
      } else {
        ranges.append(scalar...scalar)
        index += 1
      }
    }
    return nil
  }

  /// Whether a name matches.
  ///
  /// - Parameter name: The file name, already folded when the pattern is case-insensitive.
  /// - Returns: `true` when the whole name matches.
  func matches(_ name: [Unicode.Scalar]) -> Bool {
    var t = 0
    var n = 0
    var starToken = -1
    var starName = 0
    while n < name.count {
      if t < tokens.count {
        switch tokens[t] {
        case .star:
          starToken = t
          starName = n
          t += 1
          continue
        case .any:
          t += 1
          n += 1
          continue
        case .scalar(let wanted) where wanted == name[n]:
          t += 1
          n += 1
          continue
        case .set(let ranges, let negated)
        where ranges.contains(where: { $0.contains(name[n]) }) != negated:
          t += 1
          n += 1
          continue
        default:
          break
        }
      }
      // Mismatch: let the last star take one more character, or fail.
      guard starToken >= 0 else { return false }
      starName += 1
      n = starName
      t = starToken + 1
    }
    while t < tokens.count, tokens[t] == .star { t += 1 }
    return t == tokens.count
  }
}
