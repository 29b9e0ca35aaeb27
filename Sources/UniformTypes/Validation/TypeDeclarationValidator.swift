public import PropertyLists

/// Checks type declarations and document types the way a careful reviewer would.
///
/// The validator looks at several decoded files together (an app's Info.plist
/// and the declaration files it relies on), with the system types, and
/// reports every problem as a ``Diagnostic`` with a stable rule code (see
/// ``ValidationRule``), the place in the file, a severity and a one-line
/// hint. It never stops at the first problem.
public struct TypeDeclarationValidator: Sendable {
  /// The values roles may take in `CFBundleTypeRole`.
  public static let roles = ["Editor", "Viewer", "Shell", "QLGenerator", "None"]
  /// The values `LSHandlerRank` may take.
  public static let handlerRanks = ["Owner", "Default", "Alternate", "None"]
  /// Extensions that name bundle-like directories: a type claiming one is a package type.
  public static let packageExtensions: Set<String> = [
    "bundle", "framework", "plugin", "kext", "appex", "xpc", "app",
  ]

  /// The registry of types declared outside the files being validated.
  public var baseRegistry: TypeRegistry

  /// Creates a validator.
  ///
  /// - Parameter baseRegistry: The types known besides the validated files: the
  ///   system types, or a registry with the user's `--declarations` loaded.
  public init(baseRegistry: TypeRegistry = .system) {
    self.baseRegistry = baseRegistry
  }

  /// Validates decoded files together.
  ///
  /// - Parameter sources: The decoded files, in the order the user named them.
  ///   Their decoding diagnostics are included in the result.
  /// - Returns: Every problem found, ordered by file (in `sources` order), line and column.
  public func validate(_ sources: [DeclarationSource]) -> [Diagnostic] {
    var run = ValidationRun(sources: sources, baseRegistry: baseRegistry)
    run.checkAll()
    return run.sortedDiagnostics()
  }
}

/// The state of one validation: the combined registry and what has been seen so far.
struct ValidationRun {
  let sources: [DeclarationSource]
  let baseRegistry: TypeRegistry
  let registry: TypeRegistry
  var diagnostics: [Diagnostic] = []
  var packageClaims: [TypeIdentifier: SourceLocation?] = [:]

  init(sources: [DeclarationSource], baseRegistry: TypeRegistry) {
    self.sources = sources
    self.baseRegistry = baseRegistry
    var builder = TypeRegistryBuilder()
    for node in baseRegistry.nodes {
      if let declaration = node.declaration, declaration.kind != .system {
        builder.add(declaration)
      }
    }
    for source in sources { builder.add(source) }
    self.registry = builder.build()
  }

  mutating func checkAll() {
    for source in sources { diagnostics += source.diagnostics }
    checkIdentifiers()
    for source in sources {
      for documentType in source.documentTypes { check(documentType) }
    }
    for source in sources {
      for declaration in source.declarations { check(declaration) }
    }
    checkDuplicateExtensions()
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

  // MARK: Identifiers across files

  private mutating func checkIdentifiers() {
    var firstByKind: [TypeDeclaration.Kind: [TypeIdentifier: TypeDeclaration]] = [:]
    var exported: Set<TypeIdentifier> = []
    for source in sources {
      for declaration in source.exported { exported.insert(declaration.identifier) }
    }
    for source in sources {
      for declaration in source.declarations {
        let identifier = declaration.identifier
        let location = declaration.identifierLocation ?? declaration.location
        if let first = firstByKind[declaration.kind]?[identifier] {
          diagnostics.append(
            ValidationRule.duplicateIdentifier.diagnostic(
              "\(identifier) is \(declaration.kind.rawValue) again; first declared at \(Self.describe(first.identifierLocation ?? first.location))",
              at: location, hint: "remove one of the declarations"))
        } else {
          firstByKind[declaration.kind, default: [:]][identifier] = declaration
        }
        if declaration.kind == .imported && exported.contains(identifier) {
          diagnostics.append(
            ValidationRule.exportedAndImported.diagnostic(
              "\(identifier) is both exported and imported; the exported declaration wins",
              at: location, hint: "remove the import"))
        }
      }
    }
  }

  // MARK: Type declarations

  private mutating func check(_ declaration: TypeDeclaration) {
    let identifier = declaration.identifier
    let location = declaration.identifierLocation ?? declaration.location
    let raw = identifier.rawValue
    var identifierUsable = true

    if Self.hasVariable(raw) {
      identifierUsable = false
    } else if let problem = TypeIdentifier.syntaxProblem(in: raw) {
      identifierUsable = false
      diagnostics.append(
        ValidationRule.invalidIdentifier.diagnostic(
          "type identifier '\(raw)' \(problem)", at: location, hint: Self.identifierHint(problem)))
    }

    let systemDeclares = baseRegistry.declaration(for: identifier)?.kind == .system
    if declaration.kind == .exported && identifier.isReserved {
      diagnostics.append(
        ValidationRule.reservedIdentifier.diagnostic(
          "exported type \(raw) is in a domain only Apple declares",
          at: location,
          hint: systemDeclares
            ? "remove the declaration: the system declares \(raw)"
            : "import the type (UTImportedTypeDeclarations) or use your own reverse-DNS domain"))
    } else if identifier.isDynamic {
      diagnostics.append(
        ValidationRule.dynamicIdentifier.diagnostic(
          "dynamic identifier \(raw) is declared; the system ignores dyn. types in declarations",
          at: location, hint: "declare a real identifier for the type"))
    } else if systemDeclares {
      diagnostics.append(
        ValidationRule.redeclaredSystemType.diagnostic(
          "\(raw) is a system type; this \(declaration.kind.rawValue) declaration is ignored",
          at: location, hint: "remove the declaration and use the system type"))
    }

    checkParents(of: declaration, identifierUsable: identifierUsable)
    checkTags(of: declaration)

    if declaration.conformsTo.isEmpty && declaration.tags.isEmpty {
      diagnostics.append(
        ValidationRule.emptyDeclaration.diagnostic(
          "\(raw) declares neither UTTypeConformsTo nor UTTypeTagSpecification",
          at: location, hint: "add its parents and its filename extensions or MIME types"))
    }
  }

  private mutating func checkParents(of declaration: TypeDeclaration, identifierUsable: Bool) {
    let identifier = declaration.identifier
    let location = declaration.identifierLocation ?? declaration.location
    var parentsUsable = true
    var selfCycle = false
    for parent in declaration.conformsTo {
      let raw = parent.value.rawValue
      let at = parent.location ?? location
      if Self.hasVariable(raw) {
        parentsUsable = false
      } else if let problem = TypeIdentifier.syntaxProblem(in: raw) {
        parentsUsable = false
        diagnostics.append(
          ValidationRule.invalidIdentifier.diagnostic(
            "parent identifier '\(raw)' of \(identifier) \(problem)", at: at,
            hint: Self.identifierHint(problem)))
      } else if parent.value == identifier {
        selfCycle = true
        diagnostics.append(
          ValidationRule.conformanceCycle.diagnostic(
            "\(identifier) conforms to itself", at: at,
            hint: "remove \(raw) from its own UTTypeConformsTo"))
      } else if parent.value.isDynamic {
        parentsUsable = false
        diagnostics.append(
          ValidationRule.dynamicIdentifier.diagnostic(
            "\(identifier) conforms to the dynamic identifier \(raw)", at: at,
            hint: "conform to a declared type instead"))
      } else if !registry.isDeclared(parent.value) {
        parentsUsable = false
        let apple = parent.value.isReserved
        diagnostics.append(
          ValidationRule.unknownSupertype.diagnostic(
            apple
              ? "\(identifier) conforms to \(raw), which is not in Folio's system table"
              : "\(identifier) conforms to \(raw), which is declared nowhere",
            at: at,
            hint: apple
              ? "check the spelling; if the system declares it, load its declaration with --declarations"
              : "declare \(raw) in UTImportedTypeDeclarations, or fix the parent",
            severity: apple ? .warning : .error))
      } else if !selfCycle && registry.conforms(parent.value, to: identifier) {
        diagnostics.append(
          ValidationRule.conformanceCycle.diagnostic(
            "\(identifier) conforms to itself through \(raw)", at: at,
            hint: "remove one link of the cycle"))
      }
    }
    guard identifierUsable, !selfCycle else { return }

    // A positive finding holds even when some parent is unknown.
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

    // Negative findings need every ancestor known.
    guard parentsUsable else { return }
    for parent in declaration.parents {
      if registry.supertypes(of: parent).contains(where: { !registry.isDeclared($0) }) { return }
      if registry.conforms(parent, to: identifier) { return }
    }
    if declaration.kind == .exported && !isData && !isPackage {
      diagnostics.append(
        ValidationRule.missingBaseType.diagnostic(
          "exported type \(identifier) conforms to neither public.data nor com.apple.package",
          at: location,
          hint:
            "add public.data (a file) or com.apple.package (a folder shown as one file) to UTTypeConformsTo"
        ))
    }
    if !isPackage, let reason = packageReason(declaration) {
      diagnostics.append(
        ValidationRule.packageNotConforming.diagnostic(
          "\(identifier) is a package type (\(reason)) but does not conform to com.apple.package",
          at: location, hint: "add com.apple.package to UTTypeConformsTo"))
    }
  }

  private func conformsThroughParents(_ declaration: TypeDeclaration, to target: TypeIdentifier)
    -> Bool
  {
    declaration.parents.contains { registry.conforms($0, to: target) }
  }

  private func packageReason(_ declaration: TypeDeclaration) -> String? {
    for source in sources {
      for documentType in source.documentTypes where documentType.isPackage?.value == true {
        if documentType.contentTypes.contains(where: { $0.value == declaration.identifier }) {
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

  private mutating func checkTags(of declaration: TypeDeclaration) {
    var seen: Set<String> = []
    for tag in declaration.tags {
      let at = tag.location ?? declaration.location
      switch tag.tagClass {
      case .filenameExtension:
        checkExtension(tag.value, at: at, allowWildcard: false)
        if !seen.insert(tag.lookupKey).inserted {
          diagnostics.append(
            ValidationRule.duplicateExtension.diagnostic(
              "\(declaration.identifier) lists the extension '\(tag.value)' twice", at: at,
              hint: "remove the repeated extension"))
        }
      case .mimeType:
        checkMIMEType(tag.value, at: at)
      case .osType:
        checkOSType(tag.value, at: at)
      default:
        continue
      }
    }
  }

  // MARK: Document types

  private mutating func check(_ documentType: DocumentType) {
    let name = documentType.name.map { "document type '\($0.value)'" } ?? "document type"
    if let role = documentType.role, !TypeDeclarationValidator.roles.contains(role.value) {
      let suggestion = TypeDeclarationValidator.roles.first {
        $0.lowercased() == role.value.lowercased().trimmingWhitespace()
      }
      diagnostics.append(
        ValidationRule.invalidRole.diagnostic(
          "\(name) has CFBundleTypeRole '\(role.value)'",
          at: role.location ?? documentType.location,
          hint: suggestion.map { "write \($0)" }
            ?? "use one of \(TypeDeclarationValidator.roles.joined(separator: ", "))"))
    }
    if let rank = documentType.handlerRank {
      if !TypeDeclarationValidator.handlerRanks.contains(rank.value) {
        let suggestion = TypeDeclarationValidator.handlerRanks.first {
          $0.lowercased() == rank.value.lowercased().trimmingWhitespace()
        }
        diagnostics.append(
          ValidationRule.invalidHandlerRank.diagnostic(
            "\(name) has LSHandlerRank '\(rank.value)'", at: rank.location ?? documentType.location,
            hint: suggestion.map { "write \($0)" }
              ?? "use one of \(TypeDeclarationValidator.handlerRanks.joined(separator: ", "))"))
      }
    } else {
      diagnostics.append(
        ValidationRule.missingHandlerRank.diagnostic(
          "\(name) has no LSHandlerRank", at: documentType.location,
          hint: "add <key>LSHandlerRank</key> with Owner, Default, Alternate or None"))
    }
    for contentType in documentType.contentTypes {
      let raw = contentType.value.rawValue
      let at = contentType.location ?? documentType.location
      if Self.hasVariable(raw) { continue }
      if let problem = TypeIdentifier.syntaxProblem(in: raw) {
        diagnostics.append(
          ValidationRule.invalidIdentifier.diagnostic(
            "content type '\(raw)' in \(name) \(problem)", at: at,
            hint: Self.identifierHint(problem)))
      } else if contentType.value.isDynamic {
        diagnostics.append(
          ValidationRule.dynamicIdentifier.diagnostic(
            "\(name) lists the dynamic identifier \(raw); the system ignores it", at: at,
            hint: "declare the type and list its identifier"))
      } else if !registry.isDeclared(contentType.value) {
        let apple = contentType.value.isReserved
        diagnostics.append(
          ValidationRule.undeclaredContentType.diagnostic(
            apple
              ? "\(name) lists \(raw), which is not in Folio's system table"
              : "\(name) lists \(raw), which is declared nowhere",
            at: at,
            hint: apple
              ? "check the spelling; if the system declares it, load its declaration with --declarations"
              : "export or import a declaration for \(raw)",
            severity: apple ? .warning : .error))
      } else if documentType.isPackage?.value == true
        && !registry.conforms(contentType.value, to: .package)
        && !sources.contains(where: {
          $0.declarations.contains { $0.identifier == contentType.value }
        })
      {
        diagnostics.append(
          ValidationRule.packageNotConforming.diagnostic(
            "\(name) sets LSTypeIsPackage but lists \(raw), which does not conform to com.apple.package",
            at: documentType.isPackage?.location ?? at,
            hint: "list a package type, or remove LSTypeIsPackage"))
      }
    }
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

  // MARK: Tags

  private mutating func checkExtension(
    _ text: String, at location: SourceLocation?, allowWildcard: Bool
  ) {
    if Self.hasVariable(text) { return }
    if allowWildcard && text == "*" { return }
    let problem: String?
    let hint: String
    if text.isEmpty {
      problem = "is empty"
      hint = "remove the empty extension"
    } else if text.hasPrefix(".") {
      problem = "starts with a dot"
      hint = "write '\(text.drop { $0 == "." })', without the dot"
    } else if text.utf8.contains(UInt8(ascii: "/")) || text.utf8.contains(UInt8(ascii: "\\")) {
      problem = "contains a path separator"
      hint = "write only the extension, such as 'txt'"
    } else if text.contains(where: { $0.isWhitespace }) {
      problem = "contains whitespace"
      hint = "remove the whitespace"
    } else if text.utf8.contains(UInt8(ascii: "*")) || text.utf8.contains(UInt8(ascii: "?")) {
      problem = "contains a wildcard"
      hint = "list each extension literally"
    } else {
      problem = nil
      hint = ""
    }
    guard let problem else { return }
    diagnostics.append(
      ValidationRule.invalidExtension.diagnostic(
        "filename extension '\(text)' \(problem)", at: location, hint: hint))
  }

  private mutating func checkMIMEType(_ text: String, at location: SourceLocation?) {
    if Self.hasVariable(text) || Self.isValidMIMEType(text) { return }
    diagnostics.append(
      ValidationRule.invalidMIMEType.diagnostic(
        "MIME type '\(text)' is not of the form type/subtype", at: location,
        hint: "write a MIME type such as application/x-example"))
  }

  private mutating func checkOSType(_ text: String, at location: SourceLocation?) {
    if Self.hasVariable(text) || text.unicodeScalars.count == 4 { return }
    diagnostics.append(
      ValidationRule.invalidOSType.diagnostic(
        "OSType '\(text)' has \(text.unicodeScalars.count) characters, not 4", at: location,
        hint: "pad with spaces to four characters (\"svg \"), or remove it"))
  }

  /// Whether a MIME type is `type/subtype` with RFC 6838 token characters and optional parameters.
  static func isValidMIMEType(_ text: String) -> Bool {
    let essence = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
    let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2 else { return false }
    return parts.allSatisfy { part in
      !part.isEmpty
        && part.unicodeScalars.allSatisfy { scalar in
          switch scalar {
          case "a"..."z", "A"..."Z", "0"..."9": true
          case "!", "#", "$", "&", "-", "^", "_", ".", "+": true
          default: false
          }
        }
    }
  }

  // MARK: Extensions claimed twice

  private mutating func checkDuplicateExtensions() {
    var claims: [String: (identifier: TypeIdentifier, location: SourceLocation?)] = [:]
    for source in sources {
      for declaration in source.exported {
        for tag in declaration.tags where tag.tagClass == .filenameExtension {
          let key = tag.lookupKey
          if let first = claims[key] {
            if first.identifier != declaration.identifier {
              diagnostics.append(
                ValidationRule.duplicateExtension.diagnostic(
                  "extension '\(tag.value)' of \(declaration.identifier) is also claimed by \(first.identifier) at \(Self.describe(first.location))",
                  at: tag.location ?? declaration.location,
                  hint: "let one exported type own the extension; import the other"))
            }
            continue
          }
          claims[key] = (declaration.identifier, tag.location)
          let systemOwners = baseRegistry.types(forFilenameExtension: key).filter {
            baseRegistry.declaration(for: $0)?.kind == .system && $0 != declaration.identifier
          }
          if let owner = systemOwners.first, !declaration.identifier.isReserved {
            diagnostics.append(
              ValidationRule.duplicateExtension.diagnostic(
                "extension '\(tag.value)' of \(declaration.identifier) is also claimed by the system type \(owner)",
                at: tag.location ?? declaration.location,
                hint: "use the system type \(owner), or import it instead of exporting a rival"))
          }
        }
      }
    }
  }

  // MARK: Helpers

  static func hasVariable(_ text: String) -> Bool {
    BuildVariables.containsReference(text)
  }

  static func identifierHint(_ problem: String) -> String {
    if problem.contains("whitespace") { return "remove the whitespace" }
    if problem.contains("reverse-DNS") { return "use reverse-DNS such as com.yourcompany.name" }
    if problem.contains("empty") {
      return "write a reverse-DNS identifier such as com.yourcompany.name"
    }
    return "use only ASCII letters, digits, hyphens and periods"
  }

  static func describe(_ location: SourceLocation?) -> String {
    location?.description ?? "an earlier declaration"
  }
}
