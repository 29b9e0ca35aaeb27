public import PropertyLists
public import UniformTypes

extension TypeDeclarationValidator {
  /// The rules that judge one declaration by itself, against the types already known.
  ///
  /// They check its identifier, its parents (an unknown or misspelt supertype, a missing base type, a
  /// cycle) and its tags. Rules about a file as a whole (document types, build variables,
  /// one extension claimed twice) are not among them, nor those the registry builder
  /// reports as it merges (duplicate and conflicting declarations).
  public static let declarationRules: Set<ValidationRule> = [
    .invalidIdentifier, .reservedIdentifier, .exportedSystemType, .dynamicIdentifier,
    .unknownSupertype, .unknownSystemType, .conformanceCycle, .missingBaseType,
    .dataAndPackage, .packageNotConforming, .invalidExtension, .invalidMIMEType,
    .invalidOSType, .emptyDeclaration,
  ]

  /// What ``declarationRules`` find in a source's declarations: the checks a program's
  /// registration of its declarations runs.
  ///
  /// - Parameter source: The decoded declarations.
  /// - Returns: The diagnostics of those rules, in file order (the source's decoding
  ///   problems are not repeated).
  public func validateDeclarations(of source: DeclarationSource) -> [Diagnostic] {
    let codes = Set(Self.declarationRules.map(\.code))
    let decoding = Set(source.diagnostics.map(\.description))
    return validate([source]).filter {
      codes.contains($0.code) && !decoding.contains($0.description)
    }
  }
}
