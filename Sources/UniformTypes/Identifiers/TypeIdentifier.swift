import PropertyLists

/// A uniform type identifier such as `public.plain-text` or `com.example.notebook`.
///
/// Identifiers compare and hash case-insensitively, as Apple's `UTTypeEqual`
/// does, but keep the spelling they were created with, so output shows what
/// the declaration wrote. Creating an identifier never fails: syntax is a
/// validation question (see ``TypeIdentifier/isWellFormed``), and a registry
/// must be able to name whatever a file wrote.
package struct TypeIdentifier: Hashable, Sendable, CustomStringConvertible,
  ExpressibleByStringLiteral, Comparable
{
  /// The identifier as written.
  package let rawValue: String
  /// The lowercased form used for comparison and hashing.
  package let key: String

  /// Creates an identifier from its text.
  ///
  /// - Parameter rawValue: The identifier as written; kept as is.
  package init(_ rawValue: String) {
    self.rawValue = rawValue
    self.key = TypeIdentifier.foldCase(rawValue)
  }

  /// Creates an identifier from a string literal.
  ///
  /// - Parameter value: The identifier as written.
  package init(stringLiteral value: String) {
    self.init(value)
  }

  package var description: String { rawValue }

  package static func == (lhs: TypeIdentifier, rhs: TypeIdentifier) -> Bool {
    lhs.key == rhs.key
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(key)
  }

  /// Orders identifiers case-insensitively, for stable listings.
  package static func < (lhs: TypeIdentifier, rhs: TypeIdentifier) -> Bool {
    lhs.key < rhs.key
  }

  /// Whether the identifier is a dynamic one (`dyn.…`), made up for an undeclared tag.
  package var isDynamic: Bool { key.hasPrefix("dyn.") }

  /// Whether the identifier is in a domain only Apple may declare (`public.`, `com.apple.`, `dyn.`).
  package var isReserved: Bool {
    key.hasPrefix("public.") || key.hasPrefix("com.apple.") || key.hasPrefix("dyn.")
  }

  /// Whether the text is a well-formed identifier: reverse-DNS components of
  /// ASCII letters, digits and hyphens, separated by single periods, at least two.
  ///
  /// This is the rule Apple documents ("only alphanumeric characters, hyphens and
  /// periods", reverse DNS). Whitespace, `+`, `_` and empty components fail.
  package var isWellFormed: Bool { TypeIdentifier.syntaxProblem(in: rawValue) == nil }

  /// Describes what is wrong with an identifier's spelling, if anything.
  ///
  /// - Parameter text: The identifier text.
  /// - Returns: A short phrase such as "contains '+'", or `nil` when well formed.
  package static func syntaxProblem(in text: String) -> String? {
    if text.isEmpty { return "is empty" }
    if let first = text.unicodeScalars.first, first == " " || first == "\t" {
      return "starts with whitespace"
    }
    if let last = text.unicodeScalars.last, last == " " || last == "\t" || last == "\n" {
      return "ends with whitespace"
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case "a"..."z", "A"..."Z", "0"..."9", "-", ".": continue
      case " ", "\t", "\n", "\r": return "contains whitespace"
      default:
        let shown = DiagnosticText.escaped(String(Character(scalar)))
        return shown.hasPrefix("\\u{")
          ? "contains the invisible character \(shown)" : "contains '\(shown)'"
      }
    }
    if text.hasPrefix(".") { return "starts with a period" }
    if text.hasSuffix(".") { return "ends with a period" }
    var periods = 0
    var previousWasPeriod = false
    for byte in text.utf8 {
      let isPeriod = byte == UInt8(ascii: ".")
      if isPeriod && previousWasPeriod { return "has an empty component" }
      if isPeriod { periods += 1 }
      previousWasPeriod = isPeriod
    }
    if periods == 0 { return "is not in reverse-DNS form (no period)" }
    return nil
  }

  /// Case folding for identifiers and tags: ASCII letters are lowered directly;
  /// anything else goes through Unicode lowercasing.
  package static func foldCase(_ text: String) -> String {
    var needsFolding = false
    for byte in text.utf8 {
      if byte >= 0x41 && byte <= 0x5A {
        needsFolding = true
      } else if byte >= 0x80 {
        return text.lowercased()
      }
    }
    guard needsFolding else { return text }
    return String(
      decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
  }
}
