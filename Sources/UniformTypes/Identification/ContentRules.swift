/// What a registry matches file names and contents against, resolved to its nodes: the
/// system types' extensions as globs, the shared MIME database's globs, magic and root-XML
/// rules, and Folio's own few content rules.
///
/// Built once with the registry and immutable after, like the rest of it.
struct ContentRules: Sendable {
  /// A name pattern and the type it gives.
  struct Glob: Sendable {
    /// The pattern as written (`*.tar.gz`, `Makefile`).
    var pattern: String
    /// The weight, 0 to 100; system extensions weigh the default 50.
    var weight: Int
    /// Whether letter case must match.
    var isCaseSensitive: Bool
    /// The type.
    var node: Int32
    /// The MIME type whose glob this is, or `nil` for a system type's extension.
    var mimeType: String?
    /// The pattern's length in Unicode scalars: at equal weight the longest pattern wins.
    var length: Int
    /// The compiled pattern, for wildcard patterns only (literals and suffixes are hashed).
    var compiled: GlobPattern?
  }

  /// A content rule and the type it gives.
  struct Magic: Sendable {
    var rule: MagicRule
    var node: Int32
    /// The MIME type whose rule this is, or `nil` for Folio's own rules.
    var mimeType: String?
  }

  /// A root-XML rule and the type it gives.
  struct RootXML: Sendable {
    var rule: RootXMLRule
    var node: Int32
    var mimeType: String?
  }

  var globs: [Glob] = []
  /// Case-sensitive literal patterns → glob indices.
  var literals: [String: [Int]] = [:]
  /// Case-insensitive literal patterns, folded → glob indices.
  var foldedLiterals: [String: [Int]] = [:]
  /// The text after the `*` of case-sensitive suffix patterns → glob indices.
  var suffixes: [String: [Int]] = [:]
  /// The same for case-insensitive suffix patterns, folded.
  var foldedSuffixes: [String: [Int]] = [:]
  /// The lengths in UTF-8 bytes of every suffix above, longest first.
  var suffixLengths: [Int] = []
  /// Which bytes begin a suffix above, set with ``suffixLengths``: a name whose byte at
  /// a length's distance from its end is none of them matches no suffix of that length,
  /// so no key is spelled for it (a pack types every file it writes by its name).
  var suffixFirstBytes = [Bool](repeating: false, count: 256)
  /// Glob indices of wildcard patterns, matched one by one.
  var wildcards: [Int] = []

  /// Content rules, highest priority first (then by MIME type, as update-mime-database sorts).
  var magic: [Magic] = []
  var rootXML: [RootXML] = []
  /// The shared MIME database's sub-class-of relation between nodes, with its implicit
  /// rules (every text type is text/plain, every file type application/octet-stream).
  var mimeParents: [Int32: [Int32]] = [:]
  /// How many leading bytes content identification reads.
  var readLength = 4_096

  /// Whether a shared MIME database was added to the registry.
  var hasDesktopDatabase = false
  /// Nodes for the fallbacks: `text/plain`, UTF-8 text, `application/octet-stream`, JSON.
  var plainText: Int32?
  var utf8PlainText: Int32?
  var octetStream: Int32?
  var json: Int32?
  /// Node → the shared MIME database definitions merged into it.
  var definitions: [Int32: [MIMETypeDefinition]] = [:]
}
