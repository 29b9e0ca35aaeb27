public import PropertyLists

/// One check `folio validate` applies, with its stable code.
///
/// Codes never change once published: CI suppressions, the JSON output and
/// SARIF results refer to them. The severity here is the usual one; a few
/// rules lower it in specific cases (an unknown parent in Apple's own domains
/// is a warning, because Folio's system table is not all of macOS).
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

  /// Makes a diagnostic for this rule.
  ///
  /// - Parameters:
  ///   - message: What is wrong, naming the key, type or tag.
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
  /// An exported identifier in `public.`, `com.apple.` or `dyn.`.
  public static let reservedIdentifier = ValidationRule(
    "reserved-identifier", .error,
    "An exported identifier is in a domain only Apple declares (public., com.apple., dyn.).")
  /// A `dyn.` identifier written in a declaration file.
  public static let dynamicIdentifier = ValidationRule(
    "dynamic-identifier", .warning,
    "A dynamic (dyn.) identifier is written in a declaration; the system ignores it there.")
  /// The same identifier declared twice with the same role.
  public static let duplicateIdentifier = ValidationRule(
    "duplicate-identifier", .error, "The same identifier is declared more than once.")
  /// The same identifier both exported and imported.
  public static let exportedAndImported = ValidationRule(
    "exported-and-imported", .warning, "A type is both exported and imported.")
  /// A declaration of a type the system already declares.
  public static let redeclaredSystemType = ValidationRule(
    "redeclared-system-type", .warning,
    "A declaration redeclares a system type; the system declaration is kept.")
  /// A later source that declares a type differently from an earlier one.
  public static let conflictingDeclaration = ValidationRule(
    "conflicting-declaration", .warning,
    "A later declaration file declares a type already declared; the first one is kept.")
  /// A parent in `UTTypeConformsTo` declared nowhere.
  public static let unknownSupertype = ValidationRule(
    "unknown-supertype", .error, "A type conforms to a type that is declared nowhere.")
  /// A type that conforms to itself through its parents.
  public static let conformanceCycle = ValidationRule(
    "conformance-cycle", .error, "A type conforms to itself, directly or through its parents.")
  /// An exported type conforming to neither `public.data` nor `com.apple.package`.
  public static let missingBaseType = ValidationRule(
    "missing-base-type", .error,
    "An exported type conforms to neither public.data nor com.apple.package.")
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
    "wrong-value-type", .error, "A known key holds a value of the wrong type.")
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
    "The same filename extension is claimed by more than one exported type.")
  /// A MIME type not of the form `type/subtype`.
  public static let invalidMIMEType = ValidationRule(
    "invalid-mime-type", .error, "A MIME type is not of the form type/subtype.")
  /// An OSType that is not four characters.
  public static let invalidOSType = ValidationRule(
    "invalid-ostype", .warning, "An OSType is not exactly four characters.")
  /// A document type whose role is not one Apple defines.
  public static let invalidRole = ValidationRule(
    "invalid-role", .error,
    "CFBundleTypeRole is not one of Editor, Viewer, Shell, QLGenerator, None.")
  /// A document type whose rank is not one Apple defines.
  public static let invalidHandlerRank = ValidationRule(
    "invalid-handler-rank", .error, "LSHandlerRank is not one of Owner, Default, Alternate, None.")
  /// A document type without `LSHandlerRank`.
  public static let missingHandlerRank = ValidationRule(
    "missing-handler-rank", .warning,
    "A document type has no LSHandlerRank (App Store Connect rejects this, ITMS-90788).")
  /// A document type naming a content type declared nowhere.
  public static let undeclaredContentType = ValidationRule(
    "undeclared-content-type", .error,
    "A document type names a content type that is declared nowhere.")
  /// A build variable such as `$(PRODUCT_BUNDLE_IDENTIFIER)` left unresolved.
  public static let unresolvedVariable = ValidationRule(
    "unresolved-variable", .error,
    "A build variable such as $(PRODUCT_BUNDLE_IDENTIFIER) is not resolved (pass -D NAME=VALUE).")
  /// A declaration with neither parents nor tags.
  public static let emptyDeclaration = ValidationRule(
    "empty-declaration", .warning, "A declaration has neither UTTypeConformsTo nor tags.")
  /// A file that could not be read or parsed.
  public static let unreadableFile = ValidationRule(
    "unreadable-file", .error, "A file could not be read or parsed as a property list.")
  /// A file that breaks the structural RELAX NG schema (`--schema`).
  public static let schemaViolation = ValidationRule(
    "schema-violation", .error, "The file does not match the property-list or declaration schema.")

  /// A file the schema pass cannot check, because it is binary or JSON (a note).
  public static let schemaSkipped = ValidationRule(
    "schema-skipped", .note,
    "The schema pass applies to XML property lists only; this file was not checked by it.")

  /// Every rule, in the order the documentation lists them.
  public static let all: [ValidationRule] = [
    .missingIdentifier, .invalidIdentifier, .reservedIdentifier, .dynamicIdentifier,
    .duplicateIdentifier, .exportedAndImported, .redeclaredSystemType, .conflictingDeclaration,
    .unknownSupertype, .conformanceCycle, .missingBaseType, .dataAndPackage,
    .packageNotConforming, .wrongValueType, .unknownKey, .invalidExtension, .duplicateExtension,
    .invalidMIMEType, .invalidOSType, .invalidRole, .invalidHandlerRank, .missingHandlerRank,
    .undeclaredContentType, .unresolvedVariable, .emptyDeclaration, .unreadableFile,
    .schemaViolation, .schemaSkipped,
  ]

  /// The rule with a code, if Folio defines one.
  ///
  /// - Parameter code: A rule code.
  /// - Returns: The rule, or `nil`.
  public static func named(_ code: String) -> ValidationRule? {
    all.first { $0.code == code }
  }
}
