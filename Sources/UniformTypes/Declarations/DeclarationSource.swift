public import FolioSystem
public import PropertyLists

/// The type declarations and document types of one property list.
///
/// A source is what one file contributes to a registry: its
/// `UTExportedTypeDeclarations`, `UTImportedTypeDeclarations` and
/// `CFBundleDocumentTypes`, decoded with every field's location, plus the
/// problems decoding found (a wrong value type, a missing identifier, an
/// unresolved build variable). A file without any of these keys is a valid,
/// empty source.
public struct DeclarationSource: Sendable {
  /// The file as the user named it (used in diagnostics and `folio types show`).
  public var name: String
  /// `UTExportedTypeDeclarations`, in file order.
  public var exported: [TypeDeclaration]
  /// `UTImportedTypeDeclarations`, in file order.
  public var imported: [TypeDeclaration]
  /// `CFBundleDocumentTypes`, in file order.
  public var documentTypes: [DocumentType]
  /// Problems found while decoding, in file order.
  public var diagnostics: [Diagnostic]
  /// Values Folio checks that still hold build variables after substitution, in file order.
  ///
  /// Identifiers, tags, roles and ranks only: a validator reports them; values Folio does not
  /// interpret are never listed.
  public var unresolvedVariables: [UnresolvedVariables] = []
  /// `CFBundlePackageType` as written (`APPL` for an app, `BNDL` for a plug-in), if present.
  ///
  /// Tells apps from plug-ins: their document types follow different rules.
  public var bundlePackageType: Located<String>?
  /// `CFBundleIdentifier` as written, if present: the domain the app's own types are in.
  public var bundleIdentifier: Located<String>?
  /// `LSMinimumSystemVersion` as written, if present: the oldest macOS the app runs on.
  ///
  /// Types the system declares only from some version on are the app's own to import on
  /// older systems.
  public var minimumSystemVersion: Located<String>?
  /// `MinimumOSVersion` as written, if present: the oldest iOS the app runs on.
  public var minimumOSVersion: Located<String>?

  /// Creates a source from decoded parts.
  ///
  /// - Parameters:
  ///   - name: The file as the user named it.
  ///   - exported: The exported declarations.
  ///   - imported: The imported declarations.
  ///   - documentTypes: The document types.
  ///   - diagnostics: Problems found while decoding.
  public init(
    name: String, exported: [TypeDeclaration] = [], imported: [TypeDeclaration] = [],
    documentTypes: [DocumentType] = [], diagnostics: [Diagnostic] = []
  ) {
    self.name = name
    self.exported = exported
    self.imported = imported
    self.documentTypes = documentTypes
    self.diagnostics = diagnostics
  }

  /// Decodes the declarations of a property list.
  ///
  /// Decoding never fails: what cannot be used is reported in ``diagnostics``
  /// and skipped (a declaration without an identifier, a value of the wrong
  /// type), and everything else is kept.
  ///
  /// - Parameters:
  ///   - root: The property list's root value (normally an Info.plist dictionary).
  ///   - name: The file as the user named it.
  ///   - variables: Build variables to substitute in declaration strings.
  public init(decoding root: PropertyListValue, name: String, variables: BuildVariables = .init()) {
    var decoder = DeclarationDecoder(sourceName: name, variables: variables)
    self = decoder.decode(root)
  }

  /// A value Folio checks that holds build variables with no value.
  public struct UnresolvedVariables: Sendable, Hashable {
    /// The key whose value it is, such as `UTTypeIdentifier`.
    public var key: String
    /// The value as written.
    public var value: String
    /// The references left, as written (`$(PRODUCT_BUNDLE_IDENTIFIER)`, `@PROJECT_NAME@`).
    public var references: [String]
    /// Their variable names, in the same order.
    public var names: [String]
    /// Where the value is.
    public var location: SourceLocation?
  }

  /// Every declaration, exported first, each group in file order.
  public var declarations: [TypeDeclaration] { exported + imported }
}
