public import FolioSystem

/// One MIME type as the shared MIME-info database describes it: a `<mime-type>` element of
/// a source XML file, merged with every other file that describes the same type.
///
/// The fields follow the freedesktop.org specification's elements. Every value read from
/// a file keeps its location, so problems can be reported as `file:line`.
public struct MIMETypeDefinition: Sendable, Equatable {
  /// The canonical MIME type, as written (`image/png`).
  public var name: String
  /// `<alias type=…>`: other names of the same type.
  public var aliases: [Located<String>]
  /// `<sub-class-of type=…>`: the types every instance of this one also is, in order.
  public var parents: [Located<String>]
  /// `<glob>`: file-name patterns, the first one the "main" extension.
  public var globs: [MIMEGlob]
  /// `<magic>`: content rules, one per element (each with its priority).
  public var magic: [MagicRule]
  /// `<root-XML>`: the document elements that make an XML file this type.
  public var rootXML: [RootXMLRule]
  /// `<comment>` without `xml:lang`: the description.
  public var comment: String?
  /// `<comment xml:lang=…>` for the languages kept when loading, by language tag (`de`, `pt_BR`).
  public var localizedComments: [String: String]
  /// `<acronym>` (`ODS`).
  public var acronym: String?
  /// `<expanded-acronym>` (`OpenDocument Spreadsheet`).
  public var expandedAcronym: String?
  /// `<icon name=…>`.
  public var icon: String?
  /// `<generic-icon name=…>`: the icon of the type's category (`x-office-document`).
  public var genericIcon: String?
  /// Where the first `<mime-type>` element describing the type starts.
  public var location: SourceLocation

  /// Creates an empty definition.
  ///
  /// - Parameters:
  ///   - name: The MIME type.
  ///   - location: Where it is described.
  public init(name: String, location: SourceLocation) {
    self.name = name
    self.aliases = []
    self.parents = []
    self.globs = []
    self.magic = []
    self.rootXML = []
    self.comment = nil
    self.localizedComments = [:]
    self.acronym = nil
    self.expandedAcronym = nil
    self.icon = nil
    self.genericIcon = nil
    self.location = location
  }

  /// The description in the first of `languages` the database translates it into, else the
  /// untranslated comment.
  ///
  /// - Parameter languages: Language tags in order of preference (`de_DE`, `de`).
  /// - Returns: The comment, or `nil` when the type has none.
  public func comment(preferring languages: [String]) -> String? {
    for language in languages {
      if let text = localizedComments[MIMEDatabase.foldLanguage(language)] { return text }
    }
    return comment
  }
}

/// A `<glob>` of the shared MIME-info database: a file-name pattern with its weight.
public struct MIMEGlob: Sendable, Hashable {
  /// The pattern as `fnmatch(3)` reads it (`*.txt`, `Makefile`, `*.[1-9]`).
  public var pattern: String
  /// The weight that settles conflicts between patterns, 0 to 100 (default 50).
  public var weight: Int
  /// Whether the pattern matches only in its own letter case (`*.C` is C++, `*.c` is C).
  public var isCaseSensitive: Bool
  /// Where the `<glob>` element is.
  public var location: SourceLocation?

  /// The weight of a glob that names none.
  public static let defaultWeight = 50

  /// Creates a glob.
  ///
  /// - Parameters:
  ///   - pattern: The pattern.
  ///   - weight: Its weight, 0 to 100.
  ///   - isCaseSensitive: Whether letter case must match.
  ///   - location: Where it was written.
  public init(
    _ pattern: String, weight: Int = defaultWeight, isCaseSensitive: Bool = false,
    location: SourceLocation? = nil
  ) {
    self.pattern = pattern
    self.weight = weight
    self.isCaseSensitive = isCaseSensitive
    self.location = location
  }
}

/// A `<root-XML>` rule: an XML file whose document element has this namespace and local
/// name is of the type.
public struct RootXMLRule: Sendable, Hashable {
  /// The namespace URI; empty means any namespace (the local name alone decides).
  public var namespaceURI: String
  /// The local name; empty means any element in the namespace.
  public var localName: String

  /// Creates a rule.
  ///
  /// - Parameters:
  ///   - namespaceURI: The namespace, or empty for any.
  ///   - localName: The element's local name, or empty for any.
  public init(namespaceURI: String, localName: String) {
    self.namespaceURI = namespaceURI
    self.localName = localName
  }

  /// Whether a document element matches the rule.
  ///
  /// - Parameter element: The document element's namespace and local name.
  /// - Returns: `true` when both parts the rule names match.
  public func matches(_ element: XMLRootElement) -> Bool {
    (namespaceURI.isEmpty || namespaceURI == element.namespaceURI)
      && (localName.isEmpty || localName == element.localName)
  }
}
