/// Build variables in Info.plist sources and their values from `-D NAME=VALUE`.
///
/// Info.plist files in source trees hold references that the build replaces:
/// Xcode's `$(PRODUCT_BUNDLE_IDENTIFIER)` and `${TARGET_NAME}`, and CMake's
/// `configure_file` placeholders `@PROJECT_NAME@`. Folio replaces the ones it
/// is given and leaves the rest as written. The modifiers Xcode applies most in
/// identifiers are supported: `$(NAME:rfc1034identifier)`,
/// `$(NAME:c99extidentifier)`, `$(NAME:lower)`, `$(NAME:upper)`, and
/// `$(NAME:default=VALUE)` for a variable that has no value.
public struct BuildVariables: Sendable, Hashable {
  /// The values, by variable name (case-sensitive, as Xcode's and CMake's are).
  public var values: [String: String]

  /// Creates a set of variables.
  ///
  /// - Parameter values: The values, by name.
  public init(_ values: [String: String] = [:]) { self.values = values }

  /// Parses definitions of the form `NAME=VALUE`.
  ///
  /// - Parameter definitions: The definitions, in order; a later one wins.
  /// - Returns: The variables.
  /// - Throws: ``UniformTypeError`` with code `invalid-definition` when a
  ///   definition has no `=` or an empty name.
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
    /// The references left as written because no value was given (`$(NAME)`, `@NAME@`).
    public var unresolved: [String]
    /// The names of the variables in ``unresolved``, in the same order.
    public var unresolvedNames: [String]
  }

  /// Replaces every known variable in a string.
  ///
  /// - Parameter text: The text, possibly holding `$(NAME)`, `${NAME}` or `@NAME@`.
  /// - Returns: The new text and the references that could not be resolved.
  public func substitute(_ text: String) -> Substitution {
    guard Self.containsReference(text) else {
      return Substitution(text: text, unresolved: [], unresolvedNames: [])
    }
    var output = ""
    var unresolved: [String] = []
    var names: [String] = []
    let scalars = Array(text.unicodeScalars)
    var index = 0
    while index < scalars.count {
      if let reference = Self.reference(in: scalars, at: index) {
        let written = String(String.UnicodeScalarView(scalars[index..<reference.end]))
        if let value = resolve(name: reference.name, modifier: reference.modifier) {
          output += value
        } else {
          output += written
          unresolved.append(written)
          names.append(reference.name)
        }
        index = reference.end
        continue
      }
      output.unicodeScalars.append(scalars[index])
      index += 1
    }
    return Substitution(text: output, unresolved: unresolved, unresolvedNames: names)
  }

  /// The references Xcode's templates put before a type identifier of the app's own.
  private static let bundleIdentifierReferences = [
    "$(PRODUCT_BUNDLE_IDENTIFIER)", "${PRODUCT_BUNDLE_IDENTIFIER}",
  ]

  /// Xcode's idiom for an app's own type identifier, `$(PRODUCT_BUNDLE_IDENTIFIER).ext`, with
  /// the variable replaced by a placeholder domain so the rest can be checked; `nil` when the
  /// text is anything else (another variable, or the variable elsewhere than at the start).
  ///
  /// The build always fills the variable in with the bundle's reverse-DNS identifier, so
  /// the identifier's shape is known without its value.
  package static func bundleIdentifierTemplate(_ text: String) -> String? {
    guard let reference = bundleIdentifierReferences.first(where: { text.hasPrefix($0) }) else {
      return nil
    }
    let rest = text.dropFirst(reference.count)
    guard !containsReference(String(rest)) else { return nil }
    return "com.placeholder-bundle" + rest
  }

  /// Whether a string holds a reference: `$(` or `${` with a closing bracket, or `@NAME@`.
  package static func containsReference(_ text: String) -> Bool {
    var previous: UInt8 = 0
    var hasAt = false
    for byte in text.utf8 {
      if previous == UInt8(ascii: "$") && (byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{")) {
        return true
      }
      if byte == UInt8(ascii: "@") { hasAt = true }
      previous = byte
    }
    guard hasAt else { return false }
    let scalars = Array(text.unicodeScalars)
    return scalars.indices.contains { scalars[$0] == "@" && reference(in: scalars, at: $0) != nil }
  }

  /// A reference starting at `index`: its name, modifier and end.
  private static func reference(in scalars: [Unicode.Scalar], at index: Int)
    -> (name: String, modifier: String?, end: Int)?
  {
    let first = scalars[index]
    if first == "$", index + 1 < scalars.count,
      scalars[index + 1] == "(" || scalars[index + 1] == "{"
    {
      let closing: Unicode.Scalar = scalars[index + 1] == "(" ? ")" : "}"
      guard let end = scalars[(index + 2)...].firstIndex(of: closing) else { return nil }
      let body = String(String.UnicodeScalarView(scalars[(index + 2)..<end]))
      let parts = body.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = parts.first, !name.isEmpty else { return nil }
      return (String(name), parts.count == 2 ? String(parts[1]) : nil, end + 1)
    }
    if first == "@" {
      // CMake's configure_file: @NAME@ with NAME of letters, digits and underscores.
      var end = index + 1
      while end < scalars.count, isNameCharacter(scalars[end]) { end += 1 }
      guard end > index + 1, end < scalars.count, scalars[end] == "@" else { return nil }
      return (String(String.UnicodeScalarView(scalars[(index + 1)..<end])), nil, end + 1)
    }
    return nil
  }

  private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "_": true
    default: false
    }
  }

  private func resolve(name: String, modifier: String?) -> String? {
    guard let value = values[name] else {
      if let modifier, modifier.hasPrefix("default=") {
        return String(modifier.dropFirst("default=".count))
      }
      return nil
    }
    guard let modifier else { return value }
    switch modifier {
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
    default: return modifier.hasPrefix("default=") ? value : nil
    }
  }
}
