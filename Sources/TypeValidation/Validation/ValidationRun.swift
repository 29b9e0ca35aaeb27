import FolioSystem
import PropertyLists
import UniformTypes

/// The state of one validation: the combined registry and what has been found so far.
///
/// Each rule family is an extension in its own file; `checkAll` runs them in a fixed order.
struct ValidationRun {
  let sources: [DeclarationSource]
  let baseRegistry: TypeRegistry
  let registry: TypeRegistry
  let remedies: TypeDeclarationValidator.Remedies
  /// Loads the Linux desktop's MIME database, which names formats other vendors own.
  let loadDesktopDatabase: (@Sendable () -> MIMEDatabase?)?
  /// The database once loaded (`.some(nil)` when the loader had none).
  var desktopDatabaseLoaded: MIMEDatabase??
  /// Identifiers declared in the validated files (not the base registry), folded for lookup.
  let ownIdentifiers: Set<TypeIdentifier>
  var diagnostics: [Diagnostic] = []
  /// The foreign domains `foreign-export` has reported, by file (`NAME\tDOMAIN`).
  var foreignDomainsReported: Set<String> = []

  init(
    sources: [DeclarationSource], baseRegistry: TypeRegistry,
    remedies: TypeDeclarationValidator.Remedies,
    desktopDatabase: (@Sendable () -> MIMEDatabase?)? = nil
  ) {
    self.sources = sources
    self.baseRegistry = baseRegistry
    self.remedies = remedies
    self.loadDesktopDatabase = desktopDatabase
    var builder = TypeRegistryBuilder()
    for node in baseRegistry.nodes where node.isDeclared && node.kind != .system {
      if let declaration = node.declaration { builder.add(declaration) }
    }
    for source in sources { builder.add(source) }
    self.registry = builder.build()
    self.ownIdentifiers = Set(sources.flatMap { $0.declarations.map(\.typeIdentifier) })
  }

  mutating func checkAll() {
    for source in sources { diagnostics += source.diagnostics }
    checkBuildVariables()
    checkIdentifiers()
    for source in sources {
      for documentType in source.documentTypes { check(documentType, in: source) }
    }
    for source in sources {
      let facts = Self.facts(of: source)
      for declaration in source.declarations { check(declaration, facts: facts) }
    }
    checkDuplicateExtensions()
    checkImportedExtensionClaims()
    checkMIMETypeClaims()
  }

  /// One declaration: its identifier's domain, its parents, its tags.
  ///
  /// - Parameters:
  ///   - declaration: The declaration.
  ///   - facts: What its file's bundle says of itself (its domain, its deployment targets).
  private mutating func check(_ declaration: TypeDeclaration, facts: BundleFacts) {
    let verdict = checkIdentifier(of: declaration, facts: facts)
    checkParents(
      of: declaration, identifierUsable: verdict.usable, judgeBaseType: !verdict.exportRejected,
      bundleDomain: facts.domain)
    checkTags(of: declaration)
    if !verdict.exportRejected { checkForeignExport(declaration, facts: facts) }
    // One defect, one report: a declaration the app must not export gets no advice on
    // completing it.
    if !verdict.exportRejected && declaration.conformances.isEmpty && declaration.tags.isEmpty {
      diagnostics.append(
        ValidationRule.emptyDeclaration.diagnostic(
          "\(Self.shown(declaration.typeIdentifier)) declares neither UTTypeConformsTo nor UTTypeTagSpecification",
          at: declaration.identifierLocation ?? declaration.location,
          hint: "add its parents and its filename extensions or MIME types"))
    }
  }

  func sortedDiagnostics() -> [Diagnostic] {
    Self.sort(diagnostics, fileOrder: sources.map(\.name))
  }

  /// Orders diagnostics by file (in the given order), line (or byte offset) and column;
  /// diagnostics at the same place keep their order.
  static func sort(_ diagnostics: [Diagnostic], fileOrder names: [String]) -> [Diagnostic] {
    let fileOrder = Dictionary(
      names.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
    return diagnostics.enumerated().sorted { a, b in
      let left = a.element.location
      let right = b.element.location
      let leftFile = left.flatMap { fileOrder[$0.file] } ?? Int.max
      let rightFile = right.flatMap { fileOrder[$0.file] } ?? Int.max
      if leftFile != rightFile { return leftFile < rightFile }
      let leftLine = left?.line ?? left?.byteOffset ?? 0
      let rightLine = right?.line ?? right?.byteOffset ?? 0
      if leftLine != rightLine { return leftLine < rightLine }
      let leftColumn = left?.column ?? 0
      let rightColumn = right?.column ?? 0
      if leftColumn != rightColumn { return leftColumn < rightColumn }
      return a.offset < b.offset
    }.map(\.element)
  }

  // MARK: Helpers shared by the rule families

  /// An identifier as diagnostics show it: escaped, so an invisible character shows.
  static func shown(_ identifier: TypeIdentifier) -> String {
    DiagnosticText.escaped(identifier.rawValue)
  }

  /// A value as diagnostics quote it.
  static func quoted(_ text: String) -> String {
    DiagnosticText.quoted(text)
  }

  static func hasVariable(_ text: String) -> Bool {
    BuildVariables.containsReference(text)
  }

  /// Whether an identifier still holds a build variable Folio cannot see through: any but
  /// Xcode's `$(PRODUCT_BUNDLE_IDENTIFIER).ext` naming a type these files declare.
  func isOpaque(_ identifier: TypeIdentifier) -> Bool {
    let raw = identifier.rawValue
    guard Self.hasVariable(raw) else { return false }
    return BuildVariables.bundleIdentifierTemplate(raw) == nil || !registry.isDeclared(identifier)
  }

  /// The text to check an identifier's spelling on: Xcode's bundle-identifier idiom with a
  /// placeholder domain, else the identifier as written.
  static func spelling(of identifier: TypeIdentifier) -> String {
    BuildVariables.bundleIdentifierTemplate(identifier.rawValue) ?? identifier.rawValue
  }

  /// An identifier's vendor domain: its first two labels, folded (`com.acme` for
  /// `com.acme.editor.doc`), or `nil` for an identifier of one label.
  static func domain(of identifier: TypeIdentifier) -> String? {
    let labels = identifier.key.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count >= 2 else { return nil }
    return labels.prefix(2).joined(separator: ".")
  }

  /// Whether an identifier is in a domain whose types only Apple's system declares.
  static func isInAppleDomain(_ identifier: TypeIdentifier) -> Bool {
    identifier.isReserved && !identifier.isDynamic
  }

  static func identifierHint(_ problem: String) -> String {
    if problem.contains("whitespace") { return "remove the whitespace" }
    if problem.contains("reverse-DNS") { return "use reverse-DNS such as com.yourcompany.name" }
    if problem.contains("empty") {
      return "write a reverse-DNS identifier such as com.yourcompany.name"
    }
    if problem.contains("invisible") {
      return "retype the identifier without the invisible character"
    }
    return "use only ASCII letters, digits, hyphens and periods"
  }

  static func describe(_ location: SourceLocation?) -> String {
    location?.description ?? "an earlier declaration"
  }

  /// What to say about an identifier in Apple's domains that no system declares.
  ///
  /// Folio's table holds the types Apple's systems declare (890, from a macOS 13 dump of the
  /// system's declarations, CoreServices' property list, SDK headers and Apple's documentation),
  /// so such an identifier is most likely the app's mistake: a `public.` name invented
  /// for a format (only Apple names `public.` types), or a `com.apple.` type that an Apple app
  /// such as Xcode or Terminal declares rather than the system. The message says which; the
  /// hint names a likely typo, else the type the system uses for a file extension the name
  /// spells (`public.markdown` → `net.daringfireball.markdown`), else the remedy.
  func undeclaredAppleType(_ identifier: TypeIdentifier) -> (remark: String, hint: String) {
    let raw = Self.shown(identifier)
    let isPublic = identifier.key.hasPrefix("public.")
    let remark =
      isPublic
      ? "\(raw), a public. name (only Apple names those) that none of Apple's systems declares"
      : "\(raw), which Apple's systems do not declare (an Apple app may)"
    if let near = nearestKnownIdentifier(to: identifier) {
      return (remark, "did you mean \(near)?")
    }
    if let (filenameExtension, type) = systemTypeNamed(by: identifier) {
      return (
        remark,
        "the system's type for files with extension \(Self.quoted(filenameExtension)) is \(type)"
      )
    }
    let remedy =
      isPublic
      ? "use the identifier the format's owner declares, or one in your own reverse-DNS domain, and import it (UTImportedTypeDeclarations) with its parents and extensions"
      : "if you rely on it, import it (UTImportedTypeDeclarations) with its parents and extensions, so systems without the app that declares it know it, or \(remedies.loadDeclarations)"
    return (remark, remedy)
  }

  /// The system type for a file extension that an Apple-domain name spells, tried part by
  /// part (`public.aifc.audio` tries `aifc.audio`, `aifc`, `audio`; `public.awk-script` tries
  /// `awk-script`, `awk`).
  private func systemTypeNamed(by identifier: TypeIdentifier) -> (String, TypeIdentifier)? {
    let name = identifier.key.split(separator: ".").dropFirst(
      identifier.key.hasPrefix("public.") ? 1 : 2)
    guard !name.isEmpty else { return nil }
    var candidates = [name.joined(separator: ".")]
    for part in name {
      // `awk-script` names awk; its last words (`script`, `text`) name no format.
      candidates += [String(part)] + part.split(separator: "-").prefix(1).map(String.init)
    }
    var tried = Set<String>()
    for candidate in candidates where candidate.utf8.count >= 2 && tried.insert(candidate).inserted
    {
      guard let type = baseRegistry.identifier(forFilenameExtension: candidate), !type.isDynamic,
        baseRegistry.declarationKind(of: type) == .system, type != identifier
      else { continue }
      return (candidate, type)
    }
    return nil
  }

  /// The known identifier closest to an unknown one, when it is close enough to be a typo: one
  /// edit away, or two for identifiers of twelve characters or more.
  func nearestKnownIdentifier(to identifier: TypeIdentifier) -> TypeIdentifier? {
    let text = TypeIdentifier.foldCase(identifier.rawValue)
    guard text.utf8.count >= 6 else { return nil }
    var best: (identifier: TypeIdentifier, distance: Int)?
    for node in registry.nodes where node.isDeclared {
      let candidate = TypeIdentifier.foldCase(node.identifier.rawValue)
      guard abs(candidate.utf8.count - text.utf8.count) <= 2, candidate != text else { continue }
      let distance = editDistance(candidate, text)
      let allowed = text.utf8.count >= 12 ? 2 : 1
      if distance <= allowed, distance < (best?.distance ?? Int.max) {
        best = (node.identifier, distance)
      }
    }
    return best?.identifier
  }
}
