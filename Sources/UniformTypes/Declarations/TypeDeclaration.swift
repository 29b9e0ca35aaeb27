public import FolioSystem
public import PropertyLists

/// One type declaration: an entry of `UTExportedTypeDeclarations` or
/// `UTImportedTypeDeclarations`, or a row of the compiled-in system table.
///
/// Every field read from a file keeps its location. Keys Folio does not know
/// are kept in ``otherKeys``, never dropped.
public struct TypeDeclaration: Sendable {
  /// Where a declaration comes from, which decides who wins a conflict.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// Declared by the system (Folio's compiled-in table).
    case system
    /// `UTExportedTypeDeclarations`: the declaring app owns the type.
    case exported
    /// `UTImportedTypeDeclarations`: the app uses a type someone else owns.
    case imported
  }

  /// `UTTypeIdentifier` exactly as written, well formed or not.
  public var identifier: String {
    get { typeIdentifier.rawValue }
    set { typeIdentifier = TypeIdentifier(newValue) }
  }
  /// `UTTypeIdentifier`, compared as identifiers are.
  package var typeIdentifier: TypeIdentifier
  /// Where `UTTypeIdentifier`'s value was written.
  public var identifierLocation: SourceLocation?
  /// Exported, imported or system.
  public var kind: Kind
  /// `UTTypeConformsTo`, the direct parents exactly as written, in declared order.
  public var conformsTo: [Located<String>] {
    get { conformances.map(\.asWritten) }
    set { conformances = newValue.map(\.asIdentifier) }
  }
  /// `UTTypeConformsTo`, the direct parents, in declared order.
  package var conformances: [Located<TypeIdentifier>]
  /// `UTTypeTagSpecification`, flattened: every tag of every class, in declared order.
  package var tags: [TypeTag]
  /// `UTTypeDescription`.
  public var typeDescription: Located<String>?
  /// `UTTypeIconFile`.
  public var iconFile: Located<String>?
  /// `UTTypeIconFiles`.
  public var iconFiles: [Located<String>]
  /// `UTTypeIcons`, kept as written (a dictionary of icon keys).
  public var icons: PropertyListValue?
  /// `UTTypeReferenceURL`.
  public var referenceURL: Located<String>?
  /// `UTTypeVersion` (a string, or a number some files write).
  public var version: Located<String>?
  /// Keys Folio does not interpret, in document order.
  public var otherKeys: [PropertyListValue.DictionaryEntry]
  /// Where the declaration's dictionary starts.
  public var location: SourceLocation?
  /// The file the declaration came from as the user named it, or `nil` for system types.
  public var sourceName: String?
  /// Translations of ``typeDescription`` by language tag (`de`, `pt_br`), from the Linux
  /// desktop's shared MIME database (its `comment xml:lang` elements).
  public var localizedDescriptions: [String: String]
  /// A short name for the format (`ODS`), from the shared MIME database's `acronym`.
  public var acronym: String?
  /// The acronym spelled out (`OpenDocument Spreadsheet`), from `expanded-acronym`.
  public var expandedAcronym: String?
  /// The icon name of the type's category (`x-office-spreadsheet`), from `generic-icon`.
  public var genericIconName: String?
  /// Where the shared MIME database describes the type, when it does (for a system type
  /// both databases describe, the desktop's description merged into Apple's).
  public var desktopDatabaseLocation: SourceLocation?

  /// Creates a declaration.
  ///
  /// - Parameters:
  ///   - identifier: `UTTypeIdentifier`.
  ///   - kind: Exported, imported or system.
  ///   - conformsTo: The direct parents.
  ///   - tags: The tags.
  ///   - typeDescription: `UTTypeDescription`.
  ///   - location: Where the declaration starts.
  ///   - sourceName: The file it came from.
  package init(
    identifier: TypeIdentifier, kind: Kind, conformsTo: [TypeIdentifier] = [],
    tags: [TypeTag] = [], typeDescription: String? = nil, location: SourceLocation? = nil,
    sourceName: String? = nil
  ) {
    self.typeIdentifier = identifier
    self.identifierLocation = location
    self.kind = kind
    self.conformances = conformsTo.map { Located($0, location: location) }
    self.tags = tags
    self.typeDescription = typeDescription.map { Located($0, location: location) }
    self.iconFile = nil
    self.iconFiles = []
    self.icons = nil
    self.referenceURL = nil
    self.version = nil
    self.otherKeys = []
    self.location = location
    self.sourceName = sourceName
    self.localizedDescriptions = [:]
    self.acronym = nil
    self.expandedAcronym = nil
    self.genericIconName = nil
    self.desktopDatabaseLocation = nil
  }

  /// The direct parents, in declared order.
  package var parents: [TypeIdentifier] { conformances.map(\.value) }

  /// The tags of one class, in declared order (the first is the preferred one).
  ///
  /// - Parameter tagClass: The tag class.
  /// - Returns: The tags as written.
  package func tags(_ tagClass: TagClass) -> [String] {
    tags.filter { $0.tagClass == tagClass }.map(\.value)
  }

  /// The filename extensions, preferred first.
  public var filenameExtensions: [String] { tags(.filenameExtension) }

  /// The MIME types, preferred first.
  public var mimeTypes: [String] { tags(.mimeType) }
}
