import FolioSystem
import UniformTypes

// Conformance rules: parents declared nowhere, cycles, a base type for exported types, files
// that are also folders, and package types that are not packages.
extension ValidationRun {
  /// The declaration's parents, and what they make of it (a file, a folder, a package).
  ///
  /// - Parameters:
  ///   - declaration: The declaration.
  ///   - identifierUsable: Whether its identifier can be used for conformance checks.
  ///   - judgeBaseType: Whether to report a missing base type (not when the export itself was
  ///     rejected: for `public.item`, adding `public.data` would make a cycle).
  ///   - bundleDomain: The domain of the file's `CFBundleIdentifier`, when known.
  mutating func checkParents(
    of declaration: TypeDeclaration, identifierUsable: Bool, judgeBaseType: Bool = true,
    bundleDomain: String? = nil
  ) {
    let identifier = declaration.typeIdentifier
    let location = declaration.identifierLocation ?? declaration.location
    var parentsUsable = true
    var selfCycle = false
    for parent in declaration.conformances {
      let raw = parent.value.rawValue
      let at = parent.location ?? location
      if isOpaque(parent.value) {
        parentsUsable = false
      } else if let problem = TypeIdentifier.syntaxProblem(in: Self.spelling(of: parent.value)) {
        parentsUsable = false
        diagnostics.append(
          ValidationRule.invalidIdentifier.diagnostic(
            "parent identifier \(Self.quoted(raw)) of \(Self.shown(identifier)) \(problem)", at: at,
            hint: Self.identifierHint(problem)))
      } else if parent.value == identifier {
        selfCycle = true
        diagnostics.append(
          ValidationRule.conformanceCycle.diagnostic(
            "\(raw) conforms to itself", at: at,
            hint: "remove \(raw) from its own UTTypeConformsTo"))
      } else if parent.value.isDynamic {
        parentsUsable = false
        diagnostics.append(
          ValidationRule.dynamicIdentifier.diagnostic(
            "\(identifier) conforms to the dynamic identifier \(raw)\(Self.standsFor(parent.value))",
            at: at, hint: "conform to a declared type instead"))
      } else if !registry.isDeclared(parent.value) {
        parentsUsable = false
        let ownDomains = Set([Self.domain(of: identifier), bundleDomain].compactMap { $0 })
        reportUnknownParent(parent.value, of: identifier, at: at, ownDomains: ownDomains)
      } else if !selfCycle && registry.conforms(parent.value, to: identifier) {
        diagnostics.append(
          ValidationRule.conformanceCycle.diagnostic(
            "\(identifier) conforms to itself through \(raw)", at: at,
            hint: "remove one link of the cycle"))
      }
    }
    guard identifierUsable, !selfCycle else { return }

    // Positive findings hold even when some parent is unknown: a type that conforms to
    // public.data is a file, whatever else it conforms to.
    let isData = conformsThroughParents(declaration, to: .data)
    let isPackage = identifier == .package || conformsThroughParents(declaration, to: .package)
    if isData,
      let directory = [TypeIdentifier.package, .bundle, .folder, .directory].first(where: {
        conformsThroughParents(declaration, to: $0)
      })
    {
      diagnostics.append(
        ValidationRule.dataAndPackage.diagnostic(
          "\(identifier) conforms to both public.data (a file) and \(directory) (a directory)",
          at: location,
          hint:
            "keep public.data for a file format, or com.apple.package for a folder shown as one file"
        ))
    }
    let everyAncestorKnown = parentsUsable && allAncestorsKnown(declaration)
    if !isPackage, isData || everyAncestorKnown, let reason = packageReason(declaration) {
      diagnostics.append(
        ValidationRule.packageNotConforming.diagnostic(
          "\(identifier) is a package type (\(reason)) but \(isData ? "conforms to public.data (a file), not to com.apple.package" : "does not conform to com.apple.package")",
          at: location,
          hint: isData
            ? "replace public.data with com.apple.package in UTTypeConformsTo, or remove LSTypeIsPackage"
            : "add com.apple.package to UTTypeConformsTo"))
    }

    // Negative findings need every ancestor known.
    guard everyAncestorKnown else { return }
    // A folder type (public.directory, public.folder) is as physical as a file or a package.
    let isDirectory = conformsThroughParents(declaration, to: .directory)
    if judgeBaseType && declaration.kind == .exported && !isData && !isPackage && !isDirectory {
      diagnostics.append(
        ValidationRule.missingBaseType.diagnostic(
          "exported type \(identifier) conforms to neither public.data (a file) nor public.directory (a folder; com.apple.package for one shown as a file)",
          at: location,
          hint:
            "add public.data (a file) or com.apple.package (a folder shown as one file) to UTTypeConformsTo"
        ))
    }
  }

  /// A parent declared nowhere: an error, unless it is in Apple's domains, where an Apple app
  /// may declare it (`unknown-system-type`), or in another vendor's domain, where that vendor's
  /// app presumably declares it (a warning).
  ///
  /// - Parameter ownDomains: The domains of the declaring type and of the bundle: a parent
  ///   there is the app's own, which these files should declare.
  private mutating func reportUnknownParent(
    _ parent: TypeIdentifier, of identifier: TypeIdentifier, at location: SourceLocation?,
    ownDomains: Set<String>
  ) {
    let near = nearestKnownIdentifier(to: parent)
    if Self.isInAppleDomain(parent) {
      let (remark, hint) = undeclaredAppleType(parent)
      diagnostics.append(
        ValidationRule.unknownSystemType.diagnostic(
          "\(identifier) conforms to \(remark); conformance through it is lost where nothing declares it",
          at: location, hint: hint))
    } else if near == nil, let domain = Self.domain(of: parent), !ownDomains.contains(domain) {
      // Launch Services takes conformance to a type it does not know once that type's owner
      // is installed: right there, lost elsewhere.
      diagnostics.append(
        ValidationRule.unknownSupertype.diagnostic(
          "\(identifier) conforms to \(parent), which no file here declares (another vendor's type, presumably); the conformance holds only where the app that declares it is installed",
          at: location,
          hint:
            "import \(parent) (UTImportedTypeDeclarations) with its parents and tags so the conformance holds everywhere, or \(remedies.loadDeclarations)",
          severity: .warning))
    } else {
      diagnostics.append(
        ValidationRule.unknownSupertype.diagnostic(
          "\(identifier) conforms to \(parent), which is declared nowhere", at: location,
          hint: near.map { "did you mean \($0)?" }
            ?? "declare \(parent) in UTImportedTypeDeclarations, or \(remedies.loadDeclarations)"))
    }
  }

  /// Whether every ancestor of the declaration's parents is declared, and none conforms back to it.
  private func allAncestorsKnown(_ declaration: TypeDeclaration) -> Bool {
    for parent in declaration.parents {
      if registry.supertypes(of: parent).contains(where: { !registry.isDeclared($0) }) {
        return false
      }
      if registry.conforms(parent, to: declaration.typeIdentifier) { return false }
    }
    return true
  }

  func conformsThroughParents(_ declaration: TypeDeclaration, to target: TypeIdentifier) -> Bool {
    declaration.parents.contains { registry.conforms($0, to: target) }
  }

  /// Why a declared type must be a package: a document type with `LSTypeIsPackage` lists it, or
  /// it claims a bundle-like extension.
  private func packageReason(_ declaration: TypeDeclaration) -> String? {
    for source in sources {
      for documentType in source.documentTypes where documentType.isPackage?.value == true {
        if documentType.contentTypeIdentifiers.contains(where: {
          $0.value == declaration.typeIdentifier
        }) {
          var reason = "a document type with LSTypeIsPackage lists it"
          if let at = documentType.isPackage?.location { reason += " at \(Self.describe(at))" }
          return reason
        }
      }
    }
    if let bundleLike = declaration.filenameExtensions.first(where: {
      TypeDeclarationValidator.packageExtensions.contains(TypeIdentifier.foldCase($0))
    }) {
      return "its extension is .\(bundleLike)"
    }
    return nil
  }
}
