import PropertyLists
import UniformTypes

// Rival claims: tags and types that belong to someone else. A MIME type the system's types
// own, an imported type's extension that a system type owns (so the document type that lists
// only the import never matches a file), and an export of another vendor's type.
extension ValidationRun {
  /// MIME types of declared types: the system type that owns one wins on Apple's systems, and
  /// two exported types claiming one leave the choice undefined.
  mutating func checkMIMETypeClaims() {
    var claims: [String: (identifier: TypeIdentifier, tag: TypeTag)] = [:]
    for source in sources {
      let facts = Self.facts(of: source)
      for declaration in source.declarations {
        let identifier = declaration.typeIdentifier
        guard !identifier.isReserved, !Self.hasVariable(identifier.rawValue),
          baseRegistry.declarationKind(of: identifier) != .system
        else { continue }
        for tag in declaration.tags where tag.tagClass == .mimeType {
          if Self.hasVariable(tag.value) || Self.mimeTypeProblem(tag.value) != nil { continue }
          let at = tag.location ?? declaration.location
          if let owner = systemOwner(of: tag, besides: identifier, facts: facts) {
            diagnostics.append(
              ValidationRule.duplicateMIMEType.diagnostic(
                "MIME type \(Self.quoted(tag.value)) of \(declaration.kind.rawValue) type \(Self.shown(identifier)) belongs to the system type \(owner), which wins for it on Apple's systems",
                at: at,
                hint:
                  "remove the MIME type, or list the format's own (such as application/x-\(Self.subtypeHint(identifier)))"
              ))
            continue
          }
          guard declaration.kind == .exported else { continue }
          let key = tag.lookupKey
          if let first = claims[key] {
            if first.identifier != identifier {
              diagnostics.append(
                ValidationRule.duplicateMIMEType.diagnostic(
                  "MIME type \(Self.quoted(tag.value)) of \(Self.shown(identifier)) is also claimed by \(Self.shown(first.identifier)) at \(Self.describe(first.tag.location)); which one a lookup gets is undefined",
                  at: at, hint: "let one exported type own the MIME type"))
            }
          } else {
            claims[key] = (identifier, tag)
          }
        }
      }
    }
  }

  /// The system type that owns a tag, when it is another type than `identifier` and the
  /// system declares it on every version the bundle supports.
  private func systemOwner(of tag: TypeTag, besides identifier: TypeIdentifier, facts: BundleFacts)
    -> TypeIdentifier?
  {
    let candidates =
      tag.tagClass == .mimeType
      ? baseRegistry.identifiers(forMIMEType: tag.value)
      : baseRegistry.identifiers(forFilenameExtension: tag.value)
    return candidates.first { owner in
      guard owner != identifier, baseRegistry.declarationKind(of: owner) == .system else {
        return false
      }
      if case .everywhere = Self.coverage(of: owner, for: facts) { return true }
      return false
    }
  }

  /// A word for a MIME subtype hint: the identifier's last label (`acme` for `com.acme`).
  static func subtypeHint(_ identifier: TypeIdentifier) -> String {
    let label = identifier.key.split(separator: ".").last.map(String.init) ?? "example"
    return label.isEmpty ? "example" : label
  }

  /// Imported types that claim an extension a system type owns: the system type wins, so a
  /// document type that lists the import and not the system type never matches those files.
  mutating func checkImportedExtensionClaims() {
    for source in sources {
      let facts = Self.facts(of: source)
      for declaration in source.imported {
        let identifier = declaration.typeIdentifier
        guard !identifier.isReserved, !Self.hasVariable(identifier.rawValue),
          baseRegistry.declarationKind(of: identifier) != .system
        else { continue }
        for tag in declaration.tags where tag.tagClass == .filenameExtension {
          if Self.hasVariable(tag.value) { continue }
          guard let owner = systemOwner(of: tag, besides: identifier, facts: facts) else {
            continue
          }
          // The document types that would open these files through the import alone.
          let stranded = source.documentTypes.filter { documentType in
            let listed = documentType.contentTypeIdentifiers.map(\.value)
            guard listed.contains(identifier) else { return false }
            return !listed.contains { other in
              other != identifier && registry.conforms(owner, to: other)
            }
          }
          guard let documentType = stranded.first else { continue }
          let name =
            documentType.name.flatMap { $0.value.isEmpty ? nil : Self.quoted($0.value) }
            ?? "without a name"
          diagnostics.append(
            ValidationRule.duplicateExtension.diagnostic(
              "extension \(Self.quoted(tag.value)) of imported type \(Self.shown(identifier)) is also claimed by the system type \(owner), which wins on Apple's systems: such files get \(owner), and the document type \(name), which lists \(Self.shown(identifier)) and not \(owner), never matches them",
              at: tag.location ?? declaration.location,
              hint: "list \(owner) in the document type's LSItemContentTypes"))
        }
      }
    }
  }

  /// Exports of types in another vendor's domain that the desktop database knows the format
  /// of: only a type's owner exports it (an app that opens another vendor's files imports
  /// their type).
  ///
  /// Types the system declares are `exported-system-type`, and an export beside an import of
  /// the same type is `exported-and-imported`; this rule covers the rest, where the desktop
  /// database names the format by one of the type's MIME types or extensions.
  mutating func checkForeignExport(_ declaration: TypeDeclaration, facts: BundleFacts) {
    let identifier = declaration.typeIdentifier
    guard declaration.kind == .exported, loadDesktopDatabase != nil,
      !identifier.isReserved, !Self.hasVariable(identifier.rawValue),
      let bundleDomain = facts.domain, let domain = Self.domain(of: identifier),
      domain != bundleDomain, !Self.placeholderDomains.contains(domain),
      baseRegistry.declarationKind(of: identifier) != .system
    else { return }
    let source = sources.first { $0.exported.contains { $0.typeIdentifier == identifier } }
    if source?.imported.contains(where: { $0.typeIdentifier == identifier }) == true { return }
    guard let source, !foreignDomainsReported.contains(source.name + "\t" + domain),
      let desktop = desktopDatabase(), let known = Self.desktopFormat(of: declaration, in: desktop)
    else { return }
    // One report per foreign domain and file: an app that copied another app's declarations
    // copied them all, and one fix (import them) covers the lot.
    foreignDomainsReported.insert(source.name + "\t" + domain)
    let others = source.exported.filter {
      $0.typeIdentifier != identifier && Self.domain(of: $0.typeIdentifier) == domain
    }.count
    let more = others == 0 ? "" : "; so are \(others) more of its exports in \(domain)"
    diagnostics.append(
      ValidationRule.foreignExport.diagnostic(
        "exported type \(Self.shown(identifier)) is in \(domain), not the bundle's domain \(bundleDomain), and its format is another vendor's (the desktop database knows it as \(known)); only the type's owner exports it\(more)",
        at: declaration.identifierLocation ?? declaration.location,
        hint:
          "move the declaration to UTImportedTypeDeclarations, keeping its identifier, parents and tags"
      ))
  }

  /// The desktop database, loaded on first use.
  private mutating func desktopDatabase() -> MIMEDatabase? {
    if let loaded = desktopDatabaseLoaded { return loaded }
    let database = loadDesktopDatabase?()
    desktopDatabaseLoaded = .some(database)
    return database
  }

  /// The desktop MIME type a declaration's tags name, if any: one of its MIME types, or the
  /// type whose `*.EXT` glob matches one of its extensions.
  static func desktopFormat(of declaration: TypeDeclaration, in desktop: MIMEDatabase) -> String? {
    for tag in declaration.tags where tag.tagClass == .mimeType {
      if let definition = desktop.definition(for: tag.value) { return definition.name }
    }
    let extensions = Set(
      declaration.tags.filter { $0.tagClass == .filenameExtension }.map {
        "*." + TypeIdentifier.foldCase($0.value)
      })
    guard !extensions.isEmpty else { return nil }
    for type in desktop.types {
      if type.globs.contains(where: { extensions.contains(TypeIdentifier.foldCase($0.pattern)) }) {
        return type.name
      }
    }
    return nil
  }
}
