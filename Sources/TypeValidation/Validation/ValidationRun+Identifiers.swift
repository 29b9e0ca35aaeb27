import PropertyLists
import UniformTypes

// Identifier rules: spelling, Apple's domains, dynamic identifiers, system types, and the same
// identifier declared twice or both exported and imported.
extension ValidationRun {
  /// Identifiers within and across files: duplicates with the same role, and types both exported
  /// and imported.
  ///
  /// Within one file, any repetition is a mistake. Across files, only a second export is: an app,
  /// its extensions and other apps validated together each import the types they open, and an
  /// extension imports what its app exports (Apple's recommended pattern), so those are not
  /// reported.
  mutating func checkIdentifiers() {
    var firstExport: [TypeIdentifier: TypeDeclaration] = [:]
    for source in sources {
      var firstByKind: [TypeDeclaration.Kind: [TypeIdentifier: TypeDeclaration]] = [:]
      let exportedHere = Set(source.exported.map(\.typeIdentifier))
      let bundleDomain = Self.facts(of: source).domain
      for declaration in source.declarations {
        let identifier = declaration.typeIdentifier
        let location = declaration.identifierLocation ?? declaration.location
        let earlier =
          firstByKind[declaration.kind]?[identifier]
          ?? (declaration.kind == .exported ? firstExport[identifier] : nil)
        if let first = earlier {
          diagnostics.append(
            ValidationRule.duplicateIdentifier.diagnostic(
              "\(Self.shown(identifier)) is \(declaration.kind.rawValue) again; first declared at \(Self.describe(first.identifierLocation ?? first.location))",
              at: location, hint: "remove one of the declarations"))
        } else {
          firstByKind[declaration.kind, default: [:]][identifier] = declaration
        }
        if declaration.kind == .imported && exportedHere.contains(identifier) {
          // Only a type's owner exports it: under another vendor's domain, the import is the
          // declaration to keep.
          let domain = Self.domain(of: identifier)
          let foreign =
            bundleDomain != nil && domain != nil && domain != bundleDomain
            && !Self.hasVariable(identifier.rawValue)
          diagnostics.append(
            ValidationRule.exportedAndImported.diagnostic(
              "\(Self.shown(identifier)) is both exported and imported; the exported declaration wins",
              at: location,
              hint: foreign
                ? "remove the export and keep the import: \(Self.shown(identifier)) is in \(domain ?? ""), not the bundle's domain \(bundleDomain ?? ""), and only a type's owner exports it"
                : "remove the import"))
        }
      }
      for declaration in source.exported where firstExport[declaration.typeIdentifier] == nil {
        firstExport[declaration.typeIdentifier] = declaration
      }
    }
  }

  /// What ``checkIdentifier(of:facts:)`` found about a declaration's identifier.
  struct IdentifierVerdict {
    /// Whether the identifier can be used for conformance checks.
    var usable: Bool
    /// Whether the declaration was reported as one the app must not export at all
    /// (`reserved-identifier`, `exported-system-type`): its other shortcomings follow from
    /// that one defect, and their hints (add a base type) would mislead.
    var exportRejected = false
  }

  /// One declaration's identifier: its spelling and its domain.
  ///
  /// - Parameters:
  ///   - declaration: The declaration.
  ///   - facts: What its file's bundle says of itself.
  /// - Returns: Whether the identifier is usable, and whether its export was rejected.
  mutating func checkIdentifier(of declaration: TypeDeclaration, facts: BundleFacts)
    -> IdentifierVerdict
  {
    let identifier = declaration.typeIdentifier
    let location = declaration.identifierLocation ?? declaration.location
    let raw = identifier.rawValue
    if Self.hasVariable(raw) {
      guard let template = BuildVariables.bundleIdentifierTemplate(raw) else {
        return IdentifierVerdict(usable: false)
      }
      // Xcode's `$(PRODUCT_BUNDLE_IDENTIFIER).ext`: the app's own domain, whatever its value.
      if let problem = TypeIdentifier.syntaxProblem(in: template) {
        diagnostics.append(
          ValidationRule.invalidIdentifier.diagnostic(
            "type identifier \(Self.quoted(raw)) \(problem)", at: location,
            hint: Self.identifierHint(problem)))
        return IdentifierVerdict(usable: false)
      }
      return IdentifierVerdict(usable: true)
    }
    if let problem = TypeIdentifier.syntaxProblem(in: raw) {
      diagnostics.append(
        ValidationRule.invalidIdentifier.diagnostic(
          "type identifier \(Self.quoted(raw)) \(problem)", at: location,
          hint: Self.identifierHint(problem)))
      return IdentifierVerdict(usable: false)
    }

    let systemDeclares = baseRegistry.declarationKind(of: identifier) == .system
    var verdict = IdentifierVerdict(usable: true)
    if identifier.isDynamic {
      diagnostics.append(
        ValidationRule.dynamicIdentifier.diagnostic(
          "\(declaration.kind.rawValue) type \(raw) is a dynamic identifier\(Self.standsFor(identifier)); a declaration names a type of its own",
          at: location,
          hint: "give the type a reverse-DNS identifier of your own and list the tags there"))
    } else if declaration.kind == .exported && identifier.isReserved {
      verdict.exportRejected = true
      diagnostics.append(
        ValidationRule.reservedIdentifier.diagnostic(
          "exported type \(raw) is in a domain only Apple declares",
          at: location,
          hint: systemDeclares
            ? "remove the declaration: the system declares \(raw)"
            : "import the type (UTImportedTypeDeclarations) or use your own reverse-DNS domain"))
    } else if declaration.kind == .exported && systemDeclares {
      verdict.exportRejected = true
      diagnostics.append(
        ValidationRule.exportedSystemType.diagnostic(
          "exported type \(raw) is declared by the system; only its owner exports a type, and the system's declaration wins",
          at: location,
          hint:
            "import \(raw) (UTImportedTypeDeclarations) if you rely on it, or remove the declaration"
        ))
    } else if declaration.kind == .imported && systemDeclares {
      checkImportOfSystemType(declaration, facts: facts)
    } else if declaration.kind == .imported && identifier.key.hasPrefix("public.") {
      // Only Apple declares public. types, so an import of one no system declares invents a
      // public. name: it works where the app is installed, and collides with whatever Apple (or
      // another app) later declares under it.
      let (remark, hint) = undeclaredAppleType(identifier)
      diagnostics.append(
        ValidationRule.unknownSystemType.diagnostic(
          "imported type \(remark); an import names a type its owner declares", at: location,
          hint: hint))
    }
    // A bundle still in a placeholder domain is a sample or a template, not yet shipped; one
    // whose identifier comes from the build (`$(PRODUCT_BUNDLE_IDENTIFIER)`) is a product.
    if let domain = Self.domain(of: identifier), Self.placeholderDomains.contains(domain),
      facts.hasBundleIdentifier, !Self.placeholderDomains.contains(facts.domain ?? "")
    {
      diagnostics.append(
        ValidationRule.placeholderIdentifier.diagnostic(
          "\(declaration.kind.rawValue) type \(raw) is in the placeholder domain \(domain), which templates and other apps' leftovers share; the first app to declare it there decides what it means",
          at: location,
          hint: declaration.kind == .exported
            ? facts.domain.map { "name the type in the app's own domain (\($0).…)" }
              ?? "name the type after the app's bundle identifier ($(PRODUCT_BUNDLE_IDENTIFIER).ext)"
            : "import the identifier the format's owner declares instead"))
    }
    return verdict
  }

  /// The domains templates and examples use (`com.example`, `com.yourcompany`), never a vendor's.
  static let placeholderDomains: Set<String> = [
    "com.example", "com.yourcompany", "com.mycompany", "com.unknown", "com.company",
    "com.your-company", "org.example",
  ]

  /// `" (the system's stand-in for files with extension 'rs')"`, or nothing when it does not decode.
  static func standsFor(_ identifier: TypeIdentifier) -> String {
    guard let specification = identifier.dynamicSpecification, !specification.tags.isEmpty else {
      return ""
    }
    let tags = specification.tags.map { tag -> String in
      switch tag.tagClass {
      case .filenameExtension: "files with extension \(quoted(tag.value))"
      case .mimeType: "MIME type \(quoted(tag.value))"
      case .osType: "OSType \(quoted(tag.value))"
      default: "\(tag.tagClass.identifier) \(quoted(tag.value))"
      }
    }
    return " (the system's stand-in for \(tags.joined(separator: " and ")))"
  }
}
