import UniformTypes

/// "Did you mean" for a type the registry does not know (`export --to binary`,
/// `types show mdd`): the closest identifiers and extensions by edit distance,
/// and identifiers that hold the word as one of their parts
/// (`binary` → `com.apple.binary-property-list`).
enum TypeSuggestions {
  /// The suggestion clause, or nothing when no type is close.
  ///
  /// - Parameters:
  ///   - text: What the user typed.
  ///   - registry: The registry in use.
  /// - Returns: `; did you mean 'a' or 'b'?`, or an empty string.
  static func didYouMean(_ text: String, registry: TypeRegistry) -> String {
    var extensions: [String] = []
    var identifiers: [String] = []
    for declaration in registry.declarations {
      identifiers.append(declaration.typeIdentifier.rawValue)
      extensions.append(contentsOf: declaration.filenameExtensions)
    }
    var found = Suggestions.closest(to: text, among: extensions + identifiers)
    let word = text.lowercased()
    if found.count < 3 && word.count >= 3 {
      let containing = identifiers.filter { identifier in
        identifier.lowercased().split(whereSeparator: { $0 == "." || $0 == "-" }).contains {
          $0 == word
        }
      }
      for identifier in containing where !found.contains(identifier) && found.count < 3 {
        found.append(identifier)
      }
    }
    guard let last = found.last else { return "" }
    let quoted = found.map { "'\($0)'" }
    let list =
      found.count == 1
      ? "'\(last)'" : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    return "; did you mean \(list)?"
  }
}
