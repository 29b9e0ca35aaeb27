public import FolioSystem
public import PropertyLists

/// One entry of `CFBundleDocumentTypes`: a kind of document an app opens.
///
/// Every field read from a file keeps its location; keys Folio does not know
/// are kept in ``otherKeys``.
public struct DocumentType: Sendable {
  /// `CFBundleTypeName`.
  public var name: Located<String>?
  /// `CFBundleTypeRole` as written (`Editor`, `Viewer`, `Shell`, `QLGenerator`, `MDImporter`, `None`).
  public var role: Located<String>?
  /// `LSHandlerRank` as written (`Owner`, `Default`, `Alternate`, `None`).
  public var handlerRank: Located<String>?
  /// `LSItemContentTypes`: the types the app handles, exactly as written.
  public var contentTypes: [Located<String>] {
    get { contentTypeIdentifiers.map(\.asWritten) }
    set { contentTypeIdentifiers = newValue.map(\.asIdentifier) }
  }
  /// `LSItemContentTypes`, compared as identifiers are.
  package var contentTypeIdentifiers: [Located<TypeIdentifier>]
  /// `LSTypeIsPackage`.
  public var isPackage: Located<Bool>?
  /// `CFBundleTypeExtensions` (legacy; used only when `LSItemContentTypes` is absent).
  public var extensions: [Located<String>]
  /// `CFBundleTypeMIMETypes` (legacy).
  public var mimeTypes: [Located<String>]
  /// `CFBundleTypeOSTypes` (legacy).
  public var osTypes: [Located<String>]
  /// `CFBundleTypeIconFile`.
  public var iconFile: Located<String>?
  /// `NSDocumentClass`.
  public var documentClass: Located<String>?
  /// `NSExportableTypes`, exactly as written.
  public var exportableTypes: [Located<String>] {
    get { exportableTypeIdentifiers.map(\.asWritten) }
    set { exportableTypeIdentifiers = newValue.map(\.asIdentifier) }
  }
  /// `NSExportableTypes`, compared as identifiers are.
  package var exportableTypeIdentifiers: [Located<TypeIdentifier>]
  /// Keys Folio does not interpret, in document order.
  public var otherKeys: [PropertyListValue.DictionaryEntry]
  /// Where the entry's dictionary starts.
  public var location: SourceLocation?

  /// Creates an empty document type.
  ///
  /// - Parameter location: Where the entry starts.
  public init(location: SourceLocation? = nil) {
    name = nil
    role = nil
    handlerRank = nil
    contentTypeIdentifiers = []
    isPackage = nil
    extensions = []
    mimeTypes = []
    osTypes = []
    iconFile = nil
    documentClass = nil
    exportableTypeIdentifiers = []
    otherKeys = []
    self.location = location
  }
}
