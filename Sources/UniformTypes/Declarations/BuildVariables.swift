/// Xcode-style build variables (`$(NAME)`, `${NAME}`) and their values from `-D NAME=VALUE`.
///
/// Info.plist files in source trees hold `$(PRODUCT_BUNDLE_IDENTIFIER)` and
/// similar references that Xcode replaces at build time. Folio replaces the
/// ones it is given and reports the rest. The modifiers Xcode applies most
/// in identifiers are supported: `$(NAME:rfc1034identifier)`,
/// `$(NAME:c99extidentifier)`, `$(NAME:lower)` and `$(NAME:upper)`.
public struct BuildVariables: Sendable, Hashable {
  /// The values, by variable name (case-sensitive, as Xcode's are).
  public var values: [String: String]

  /// Creates a set of variables.
  ///
  /// - Parameter values: The values, by name.
  public init(_ values: [String: String] = [:]) { self.values = values }

  /// Parses `-D` arguments of the form `NAME=VALUE`.
  ///
  /// - Parameter definitions: The arguments, in order; a later one wins.
  /// - Returns: The variables.
  /// - Throws: ``UniformTypeError`` with code `invalid-definition` when an
  ///   argument has no `=` or an empty name.
  public static func parse(_ definitions: [String]) throws -> BuildVariables {
    var values: [String: String] = [:]
    for definition in definitions {
      guard let equals = definition.firstIndex(of: "="), equals != definition.startIndex else {
        throw UniformTypeError(
          .invalidDefinition, "invalid definition '\(definition)': expected NAME=VALUE")
      }
      values[String(definition[..<equals])] = String(definition[definition.index(after: equals)...])
    }
    return BuildVariables(values)
  }

  /// The result of substituting variables in one string.
  public struct Substitution: Sendable, Hashable {
    /// The text with every known variable replaced.
    public var text: String
    /// The references left as written because no value was given (`$(NAME)`).
    public var unresolved: [String]
  }

  /// Replaces every known variable in a string.
  ///
  /// - Parameter text: The text, possibly holding `$(NAME)` or `${NAME}`.
  /// - Returns: The new text and the references that could not be resolved.
  public func substitute(_ text: String) -> Substitution {
    guard Self.containsReference(text) else {
      return Substitution(text: text, unresolved: [])
    }
    var output = ""
    var unresolved: [String] = []
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      let next = text.index(after: index)
      if character == "$", next < text.endIndex, text[next] == "(" || text[next] == "{" {
        let closing: Character = text[next] == "(" ? ")" : "}"
        let nameStart = text.index(after: next)
        if let end = text[nameStart...].firstIndex(of: closing) {
          let reference = String(text[index...end])
          let body = text[nameStart..<end]
          if let value = resolve(body) {
            output += value
          } else {
            output += reference
            unresolved.append(reference)
          }
          index = text.index(after: end)
          continue
        }
      }
      output.append(character)
      index = next
    }
    return Substitution(text: output, unresolved: unresolved)
  }

  /// Whether a string holds `$(` or `${`, scanned as bytes (no Foundation search).
  static func containsReference(_ text: String) -> Bool {
    var previousWasDollar = false
    for byte in text.utf8 {
      if previousWasDollar && (byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{")) {
        return true
      }
      previousWasDollar = byte == UInt8(ascii: "$")
    }
    return false
  }

  private func resolve(_ body: Substring) -> String? {
    let parts = body.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    guard let name = parts.first, !name.isEmpty, let value = values[String(name)] else {
      return nil
    }
    guard parts.count == 2 else { return value }
    switch parts[1] {
    case "rfc1034identifier":
      return String(
        value.unicodeScalars.map { scalar -> Character in
          switch scalar {
          case "a"..."z", "A"..."Z", "0"..."9", "-", ".": Character(scalar)
          default: "-"
          }
        })
    case "c99extidentifier", "identifier":
      return String(
        value.unicodeScalars.map { scalar -> Character in
          switch scalar {
          case "a"..."z", "A"..."Z", "0"..."9", "_": Character(scalar)
          default: "_"
          }
        })
    case "lower": return value.lowercased()
    case "upper": return value.uppercased()
    default: return nil
    }
  }
}
