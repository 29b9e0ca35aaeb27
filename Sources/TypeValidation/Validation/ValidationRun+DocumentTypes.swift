import FolioSystem
import UniformTypes

// Document-type rules: role, handler rank, the content types listed, and their tags.
extension ValidationRun {
  mutating func check(_ documentType: DocumentType, in source: DeclarationSource) {
    let isPlugin = Self.isPluginDocumentType(documentType, in: source)
    let name =
      documentType.name.flatMap {
        $0.value.isEmpty ? nil : "document type \(Self.quoted($0.value))"
      }
      ?? "a document type without CFBundleTypeName"
    if let role = documentType.role, !Self.hasVariable(role.value),
      !TypeDeclarationValidator.roles.contains(role.value)
    {
      let suggestion = TypeDeclarationValidator.roles.first {
        $0.lowercased() == role.value.lowercased().trimmingWhitespace()
      }
      diagnostics.append(
        ValidationRule.invalidRole.diagnostic(
          "\(name) has CFBundleTypeRole \(Self.quoted(role.value))",
          at: role.location ?? documentType.location,
          hint: suggestion.map { "write \($0)" }
            ?? "use one of \(TypeDeclarationValidator.roles.joined(separator: ", "))"))
    }
    if let rank = documentType.handlerRank {
      if !Self.hasVariable(rank.value), !TypeDeclarationValidator.handlerRanks.contains(rank.value)
      {
        let suggestion = TypeDeclarationValidator.handlerRanks.first {
          $0.lowercased() == rank.value.lowercased().trimmingWhitespace()
        }
        diagnostics.append(
          ValidationRule.invalidHandlerRank.diagnostic(
            "\(name) has LSHandlerRank \(Self.quoted(rank.value))",
            at: rank.location ?? documentType.location,
            hint: suggestion.map { "write \($0)" }
              ?? "use one of \(TypeDeclarationValidator.handlerRanks.joined(separator: ", "))"))
      }
    } else if !isPlugin {
      // LSHandlerRank ranks apps as editors and viewers; a plug-in's document types only say
      // which files it reads.
      diagnostics.append(
        ValidationRule.missingHandlerRank.diagnostic(
          "\(name) has no LSHandlerRank", at: documentType.location,
          hint: "add <key>LSHandlerRank</key> with Owner, Default, Alternate or None"))
    }
    if !isPlugin && (documentType.name?.value.isEmpty ?? true) {
      // App Store Connect refuses an app whose document type has no name (ITMS-90243); a
      // plug-in's document types only say which files it reads.
      diagnostics.append(
        ValidationRule.missingTypeName.diagnostic(
          "an app's document type has no CFBundleTypeName",
          at: documentType.name?.location ?? documentType.location,
          hint:
            "add <key>CFBundleTypeName</key> with the kind's name, such as \"Markdown Document\""))
    }
    // A plug-in's rank means nothing (see above), so neither does its claim to own a type.
    if !isPlugin && documentType.handlerRank?.value == "Owner" {
      checkOwnerClaims(of: documentType, named: name, in: source)
    }
    checkContentTypes(of: documentType, named: name)
    for filenameExtension in documentType.extensions {
      checkExtension(
        filenameExtension.value, at: filenameExtension.location ?? documentType.location,
        allowWildcard: true)
    }
    for mimeType in documentType.mimeTypes {
      checkMIMEType(mimeType.value, at: mimeType.location ?? documentType.location)
    }
    for osType in documentType.osTypes where osType.value != "****" {
      checkOSType(osType.value, at: osType.location ?? documentType.location)
    }
  }

  /// An `Owner` rank: it claims the formats the document type lists, so it may list neither a
  /// system type (only a format's creator owns it) nor an OSType that stands for any file
  /// (`****`) or any text (`TEXT`).
  private mutating func checkOwnerClaims(
    of documentType: DocumentType, named name: String, in source: DeclarationSource
  ) {
    guard let rank = documentType.handlerRank else { return }
    // Apple's own apps own Apple's formats.
    let facts = Self.facts(of: source)
    if facts.domain == "com.apple" { return }
    var systemTypes: [TypeIdentifier] = []
    for contentType in documentType.contentTypeIdentifiers {
      let identifier = contentType.value
      guard !isOpaque(identifier), baseRegistry.declarationKind(of: identifier) == .system,
        !ownIdentifiers.contains(identifier), !systemTypes.contains(identifier)
      else { continue }
      systemTypes.append(identifier)
    }
    if !systemTypes.isEmpty {
      let listed = systemTypes.map { Self.shown($0) }.joined(separator: ", ")
      diagnostics.append(
        ValidationRule.systemTypeOwner.diagnostic(
          "\(name) ranks the app Owner of \(listed), which the system declares; Owner says the app created the format, and only a format's creator owns it",
          at: rank.location ?? documentType.location,
          hint:
            "rank it Default (or Alternate) for system types, and keep Owner for types the app exports"
        ))
    }
    // A catch-all document type (extension `*`) is meant for any file, not one format.
    let catchAll = documentType.extensions.contains { $0.value == "*" }
    guard !catchAll else { return }
    for osType in documentType.osTypes where osType.value == "****" || osType.value == "TEXT" {
      let meaning = osType.value == "****" ? "any file" : "any text file"
      diagnostics.append(
        ValidationRule.genericOSType.diagnostic(
          "\(name) is ranked Owner and lists the OSType \(Self.quoted(osType.value)), which stands for \(meaning); the rank then claims \(meaning)",
          at: osType.location ?? documentType.location,
          hint: "remove the OSType, or list the format's own four-character code"))
    }
  }

  /// Whether a document type belongs to a plug-in (a Spotlight importer, a Quick Look
  /// generator) rather than an app: its role says so, or the bundle does (a package type other
  /// than `APPL`, or a `.mdimporter` / `.qlgenerator` folder in the file's path).
  static func isPluginDocumentType(_ documentType: DocumentType, in source: DeclarationSource)
    -> Bool
  {
    if let role = documentType.role?.value, TypeDeclarationValidator.pluginRoles.contains(role) {
      return true
    }
    return bundleIsPlugin(source)
  }

  /// Whether a file is a plug-in's Info.plist, by its `CFBundlePackageType` or, without one,
  /// by the extension of a bundle folder in its path.
  static func bundleIsPlugin(_ source: DeclarationSource) -> Bool {
    if let packageType = source.bundlePackageType?.value, !hasVariable(packageType) {
      return packageType != "APPL"
    }
    return source.name.split(separator: "/").dropLast().contains { component in
      guard let dot = component.lastIndex(of: ".") else { return false }
      return TypeDeclarationValidator.pluginBundleExtensions.contains(
        component[component.index(after: dot)...].lowercased())
    }
  }

  /// `LSItemContentTypes`: each identifier's spelling, whether it is declared, and whether it is
  /// a package when the document type says so.
  ///
  /// A document type may list other apps' types beside its own (Launch Services ignores those
  /// it does not know): an undeclared identifier is a note when another identifier of the same
  /// document type is declared, and an error only when none is, or when it is one or two
  /// edits away from a type these files declare (a typo).
  private mutating func checkContentTypes(of documentType: DocumentType, named name: String) {
    let checkable = documentType.contentTypeIdentifiers.filter {
      !isOpaque($0.value) && TypeIdentifier.syntaxProblem(in: Self.spelling(of: $0.value)) == nil
    }
    // Identifiers in Apple's domains count as declared here: Folio's table may lack them.
    let anyDeclared = checkable.contains {
      $0.value.isDynamic || registry.isDeclared($0.value) || Self.isInAppleDomain($0.value)
    }
    for contentType in documentType.contentTypeIdentifiers {
      let identifier = contentType.value
      let raw = identifier.rawValue
      let at = contentType.location ?? documentType.location
      if isOpaque(identifier) { continue }
      if let problem = TypeIdentifier.syntaxProblem(in: Self.spelling(of: identifier)) {
        diagnostics.append(
          ValidationRule.invalidIdentifier.diagnostic(
            "content type \(Self.quoted(raw)) in \(name) \(problem)", at: at,
            hint: Self.identifierHint(problem)))
      } else if identifier.isDynamic {
        diagnostics.append(
          ValidationRule.dynamicContentType.diagnostic(
            "\(name) lists the dynamic identifier \(raw)\(Self.standsFor(identifier))", at: at,
            hint: identifier.dynamicSpecification == nil
              ? "check the identifier: it does not decode as a dynamic identifier" : nil))
      } else if !registry.isDeclared(identifier) {
        reportUndeclared(
          identifier, in: name, at: at, siblingsDeclared: anyDeclared,
          listed: Set(documentType.contentTypeIdentifiers.map(\.value)))
      } else if documentType.isPackage?.value == true
        && !registry.conforms(identifier, to: .package)
        && !sources.contains(where: { $0.declarations.contains { $0.typeIdentifier == identifier } }
        )
      {
        diagnostics.append(
          ValidationRule.packageNotConforming.diagnostic(
            "\(name) sets LSTypeIsPackage but lists \(raw), which does not conform to com.apple.package",
            at: documentType.isPackage?.location ?? at,
            hint: "list a package type, or remove LSTypeIsPackage"))
      }
    }
  }

  private mutating func reportUndeclared(
    _ identifier: TypeIdentifier, in name: String, at location: SourceLocation?,
    siblingsDeclared: Bool, listed: Set<TypeIdentifier>
  ) {
    let near = nearestKnownIdentifier(to: identifier)
    let nearHint = near.flatMap { listed.contains($0) ? nil : "did you mean \($0)?" }
    // A near miss of a type the same document type lists is an alias (another vendor's or a
    // legacy identifier for the same files), not a typo: the right spelling is already there.
    if let near, ownIdentifiers.contains(near), !(siblingsDeclared && listed.contains(near)) {
      diagnostics.append(
        ValidationRule.undeclaredContentType.diagnostic(
          "\(name) lists \(Self.shown(identifier)), which is declared nowhere; these files declare \(near)",
          at: location, hint: "did you mean \(near)?"))
    } else if Self.isInAppleDomain(identifier) {
      let (remark, hint) = undeclaredAppleType(identifier)
      diagnostics.append(
        ValidationRule.unknownSystemType.diagnostic(
          "\(name) lists \(remark); no file matches it where nothing declares it",
          at: location, hint: hint))
    } else if siblingsDeclared {
      diagnostics.append(
        ValidationRule.foreignContentType.diagnostic(
          "\(name) lists \(Self.shown(identifier)), which no file here declares (another app's type, presumably); Launch Services ignores it until a declaration is installed",
          at: location, hint: nearHint))
    } else {
      diagnostics.append(
        ValidationRule.undeclaredContentType.diagnostic(
          "\(name) lists \(Self.shown(identifier)), which is declared nowhere, and none of its content types is declared",
          at: location,
          hint: nearHint
            ?? "export or import a declaration for \(Self.shown(identifier)), or \(remedies.loadDeclarations)"
        ))
    }
  }
}
