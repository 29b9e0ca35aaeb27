public import FolioSystem
public import PropertyLists

/// One check `folio validate` applies, with its stable code.
///
/// Codes never change once published: CI suppressions, configuration files,
/// baselines, the JSON output and SARIF results refer to them. Each rule has
/// one usual severity; `wrong-value-type` alone reports a value Apple reads
/// anyway (an integer `1` for a boolean) as a warning. A configuration can
/// disable a rule or change its severity (``RuleConfiguration``). Every rule
/// has a page in `docs/rules/` with a bad and a good example.
public struct ValidationRule: Hashable, Sendable, CustomStringConvertible {
  /// The stable code, such as `missing-identifier`.
  public let code: String
  /// The usual severity.
  public let severity: Diagnostic.Severity
  /// One line saying what the rule checks.
  public let summary: String

  /// Creates a rule.
  ///
  /// - Parameters:
  ///   - code: The stable code.
  ///   - severity: The usual severity.
  ///   - summary: What the rule checks.
  public init(_ code: String, _ severity: Diagnostic.Severity, _ summary: String) {
    self.code = code
    self.severity = severity
    self.summary = summary
  }

  public var description: String { code }

  /// The rule's page, relative to the repository: `docs/rules/CODE.md`.
  public var documentationPath: String { "docs/rules/\(code).md" }

  /// Makes a diagnostic for this rule.
  ///
  /// - Parameters:
  ///   - message: What is wrong, naming the key, type or tag (values quoted with
  ///     ``DiagnosticText/quoted(_:)``).
  ///   - location: Where.
  ///   - hint: How to fix it.
  ///   - severity: A severity other than the rule's usual one.
  /// - Returns: The diagnostic.
  public func diagnostic(
    _ message: String, at location: SourceLocation?, hint: String? = nil,
    severity: Diagnostic.Severity? = nil
  ) -> Diagnostic {
    Diagnostic(
      severity: severity ?? self.severity, code: code, message: message, location: location,
      hint: hint)
  }
}

extension ValidationRule {
  /// A declaration without `UTTypeIdentifier`.
  public static let missingIdentifier = ValidationRule(
    "missing-identifier", .error, "A type declaration has no UTTypeIdentifier.")
  /// An identifier that is not reverse-DNS of letters, digits, hyphens and periods.
  public static let invalidIdentifier = ValidationRule(
    "invalid-identifier", .error,
    "An identifier is not reverse-DNS of ASCII letters, digits, hyphens and periods.")
  /// An exported identifier in a domain only Apple declares.
  public static let reservedIdentifier = ValidationRule(
    "reserved-identifier", .error,
    "An exported identifier is in a domain only Apple declares (public., com.apple., dyn.).")
  /// A `dyn.` identifier used as a declaration's identifier or parent.
  public static let dynamicIdentifier = ValidationRule(
    "dynamic-identifier", .warning,
    "A declaration uses a dynamic (dyn.) identifier as its identifier or as a parent.")
  /// A document type that lists a `dyn.` identifier (a note saying which tag it stands for).
  public static let dynamicContentType = ValidationRule(
    "dynamic-content-type", .note,
    "A document type lists a dynamic (dyn.) identifier; the note says which tag it stands for.")
  /// The same identifier declared twice with the same role.
  public static let duplicateIdentifier = ValidationRule(
    "duplicate-identifier", .error, "The same identifier is declared more than once.")
  /// The same identifier both exported and imported.
  public static let exportedAndImported = ValidationRule(
    "exported-and-imported", .warning, "A type is both exported and imported.")
  /// An import of a type the system already declares.
  public static let redeclaredSystemType = ValidationRule(
    "redeclared-system-type", .warning,
    "An imported declaration redeclares a system type; the system declaration is kept.")
  /// An export of a type the system declares, outside Apple's domains.
  public static let exportedSystemType = ValidationRule(
    "exported-system-type", .error,
    "An app exports a type that the system declares; only the type's owner exports it.")
  /// A later source that declares a type differently from an earlier one.
  public static let conflictingDeclaration = ValidationRule(
    "conflicting-declaration", .warning,
    "A later declaration file declares a type already declared; the first one is kept.")
  /// A parent in `UTTypeConformsTo` declared nowhere.
  public static let unknownSupertype = ValidationRule(
    "unknown-supertype", .error, "A type conforms to a type that is declared nowhere.")
  /// An identifier in Apple's domains that none of Apple's systems declares.
  public static let unknownSystemType = ValidationRule(
    "unknown-system-type", .warning,
    "An identifier in Apple's domains (public., com.apple.), as a parent, a content type or an import, that none of Apple's systems declares: an invented public. name, or a type only an Apple app declares."
  )
  /// A type that conforms to itself through its parents.
  public static let conformanceCycle = ValidationRule(
    "conformance-cycle", .error, "A type conforms to itself, directly or through its parents.")
  /// An exported type that is neither a file nor a folder: it conforms to neither `public.data`
  /// nor `public.directory` (which `com.apple.package` and `public.folder` conform to).
  public static let missingBaseType = ValidationRule(
    "missing-base-type", .error,
    "An exported type conforms to neither public.data (a file) nor public.directory (a folder, such as com.apple.package)."
  )
  /// A type that conforms to both `public.data` and `com.apple.package` (or another directory type).
  public static let dataAndPackage = ValidationRule(
    "data-and-package", .error,
    "A type conforms to both public.data (a file) and com.apple.package or another directory type.")
  /// A package type that does not conform to `com.apple.package`.
  public static let packageNotConforming = ValidationRule(
    "package-not-conforming", .error,
    "A package type (LSTypeIsPackage, or a bundle-like extension) does not conform to com.apple.package."
  )
  /// A known key whose value has the wrong type.
  public static let wrongValueType = ValidationRule(
    "wrong-value-type", .error,
    "A known key holds a value of the wrong type (a warning when Apple reads it anyway).")
  /// A key that looks like a declaration key but is not one (a typo).
  public static let unknownKey = ValidationRule(
    "unknown-key", .warning, "A key looks like a type-declaration key but is not one.")
  /// An extension with a leading dot, a path separator, whitespace or nothing.
  public static let invalidExtension = ValidationRule(
    "invalid-extension", .error,
    "A filename extension has a leading dot, a path separator, whitespace, or is empty.")
  /// The same extension claimed by two exported types.
  public static let duplicateExtension = ValidationRule(
    "duplicate-extension", .warning,
    "The same filename extension is claimed by more than one exported type, or twice by one.")
  /// A MIME type not of the form `type/subtype`.
  public static let invalidMIMEType = ValidationRule(
    "invalid-mime-type", .error,
    "A MIME type is not type/subtype of RFC 6838 token characters (with optional parameters).")
  /// An OSType that is not four characters.
  public static let invalidOSType = ValidationRule(
    "invalid-ostype", .warning, "An OSType is not exactly four characters.")
  /// A document type whose role is not one Apple defines.
  public static let invalidRole = ValidationRule(
    "invalid-role", .error,
    "CFBundleTypeRole is not one of Editor, Viewer, Shell, QLGenerator, MDImporter, None.")
  /// A document type whose rank is not one Apple defines.
  public static let invalidHandlerRank = ValidationRule(
    "invalid-handler-rank", .error, "LSHandlerRank is not one of Owner, Default, Alternate, None.")
  /// A document type without `LSHandlerRank`.
  public static let missingHandlerRank = ValidationRule(
    "missing-handler-rank", .warning,
    "A document type has no LSHandlerRank (App Store Connect rejects this, ITMS-90788).")
  /// An app's document type without `CFBundleTypeName`.
  public static let missingTypeName = ValidationRule(
    "missing-type-name", .error,
    "An app's document type has no CFBundleTypeName (App Store Connect rejects this, ITMS-90243); a plug-in's document types need none."
  )
  /// A document type that ranks the app `Owner` of a type the system declares.
  public static let systemTypeOwner = ValidationRule(
    "system-type-owner", .warning,
    "A document type ranks the app Owner (LSHandlerRank) of a type the system declares, such as public.plain-text or public.xml; only a format's creator owns it."
  )
  /// An `Owner`-ranked document type with the wildcard or text OSType.
  public static let genericOSType = ValidationRule(
    "generic-ostype", .warning,
    "An Owner-ranked document type for particular formats lists the OSType '****' (any file) or 'TEXT' (any text) in CFBundleTypeOSTypes."
  )
  /// A type declared in a placeholder domain by a bundle with an identifier of its own.
  public static let placeholderIdentifier = ValidationRule(
    "placeholder-identifier", .warning,
    "A bundle with an identifier of its own declares a type in a placeholder domain (com.example., com.yourcompany., com.mycompany., com.unknown.), which other apps' leftovers share."
  )
  /// An export of a type in another vendor's domain that someone else is known to own.
  public static let foreignExport = ValidationRule(
    "foreign-export", .warning,
    "An app exports a type in another vendor's domain (not its CFBundleIdentifier's) whose format the system or the desktop database already knows; only the owner exports a type."
  )
  /// A MIME type claimed by a system type and a declared type, or by two exported types.
  public static let duplicateMIMEType = ValidationRule(
    "duplicate-mime-type", .warning,
    "A MIME type is claimed by a declared type and by the system type that owns it (application/octet-stream, text/plain, application/xml…), or by two exported types."
  )
  /// A document type whose content types are all declared nowhere.
  public static let undeclaredContentType = ValidationRule(
    "undeclared-content-type", .error,
    "A document type names content types that are declared nowhere (none of its types is known, or the name is close to a known one)."
  )
  /// A document type that lists another app's type beside types that are declared (a note).
  public static let foreignContentType = ValidationRule(
    "foreign-content-type", .note,
    "A document type lists a type declared by no file here beside types that are declared (another app's type, which Launch Services ignores until that app is installed)."
  )
  /// A build variable such as `$(PRODUCT_BUNDLE_IDENTIFIER)` left unresolved where Folio reads the value.
  public static let unresolvedVariable = ValidationRule(
    "unresolved-variable", .warning,
    "A build variable ($(NAME), ${NAME} or @NAME@) is not resolved in a value Folio checks, so that value is not checked."
  )
  /// A file that is a build template (C preprocessor or m4), not yet a property list.
  public static let buildTemplate = ValidationRule(
    "build-template", .warning,
    "A file is a build template (C preprocessor directives or m4 macros), not a property list until the build processes it."
  )
  /// A declaration with neither parents nor tags.
  public static let emptyDeclaration = ValidationRule(
    "empty-declaration", .warning, "A declaration has neither UTTypeConformsTo nor tags.")
  /// A file that could not be read or parsed.
  public static let unreadableFile = ValidationRule(
    "unreadable-file", .error, "A file could not be read or parsed as a property list.")
  /// A folder that holds no property list to validate.
  public static let noPropertyLists = ValidationRule(
    "no-property-lists", .error,
    "A folder holds no Info.plist, *-Info.plist or property list with type declarations.")
  /// A file that breaks the structural RELAX NG schema (`--schema`).
  public static let schemaViolation = ValidationRule(
    "schema-violation", .error,
    "The file does not match the property-list or declaration schema (and no rule reports the same problem)."
  )
  /// A file the schema pass cannot check, because it is binary or JSON (a note).
  public static let schemaSkipped = ValidationRule(
    "schema-skipped", .note,
    "The schema pass applies to XML property lists only; this file was not checked by it.")
  /// A key repeated inside one dictionary (the property-list reader's warning).
  public static let duplicateKey = ValidationRule(
    Diagnostic.duplicateKeyCode, .warning,
    "A key repeats inside one dictionary; Foundation keeps one value (the last from XML and JSON, the first from binary)."
  )
  /// A `<date>` naming a time that does not exist (the property-list reader's warning).
  public static let nonexistentDate = ValidationRule(
    Diagnostic.nonexistentDateCode, .warning,
    "A <date> names a time that does not exist (February 30, hour 24), which Apple reads by rolling over."
  )
  /// A `<key>` outside a `<dict>` (the property-list reader's warning).
  public static let strayKey = ValidationRule(
    Diagnostic.strayKeyCode, .warning,
    "A <key> stands outside a <dict>, where Apple reads it as a string.")

  /// Every rule, in the order the documentation lists them.
  public static let all: [ValidationRule] = [
    .missingIdentifier, .invalidIdentifier, .reservedIdentifier, .dynamicIdentifier,
    .dynamicContentType, .duplicateIdentifier, .exportedAndImported, .redeclaredSystemType,
    .exportedSystemType, .conflictingDeclaration, .unknownSupertype, .unknownSystemType,
    .conformanceCycle, .missingBaseType, .dataAndPackage, .packageNotConforming,
    .wrongValueType, .unknownKey, .invalidExtension, .duplicateExtension, .invalidMIMEType,
    .invalidOSType, .invalidRole, .invalidHandlerRank, .missingHandlerRank, .missingTypeName,
    .systemTypeOwner, .genericOSType, .placeholderIdentifier, .foreignExport, .duplicateMIMEType,
    .undeclaredContentType, .foreignContentType, .unresolvedVariable, .buildTemplate,
    .emptyDeclaration, .unreadableFile, .noPropertyLists, .schemaViolation, .schemaSkipped,
    .duplicateKey, .nonexistentDate, .strayKey,
  ]

  /// The rule with a code, if Folio defines one.
  ///
  /// - Parameter code: A rule code.
  /// - Returns: The rule, or `nil`.
  public static func named(_ code: String) -> ValidationRule? {
    all.first { $0.code == code }
  }
}
