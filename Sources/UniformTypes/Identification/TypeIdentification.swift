/// What a registry decided about one file, folder or link, and on what evidence.
public struct TypeIdentification: Sendable, Hashable {
  /// What the decision rests on.
  public enum Evidence: String, Sendable, Hashable, CaseIterable {
    /// The name: a declared extension, a glob of the shared MIME database, a package extension.
    case name
    /// The content: a magic or root-XML rule, or the text-or-binary test.
    case content
    /// Both: the content agrees with the name (the name's type is the content's or a
    /// subtype of it).
    case both
    /// What the item is, not what it holds: a folder, a link, a pipe, a socket, a device.
    case kind
  }

  /// One type the name or the content suggested.
  public struct Candidate: Sendable, Hashable {
    /// The type.
    public var type: UTType { UTType(resolved: identifier) }
    /// The type's identifier.
    package var identifier: TypeIdentifier
    /// The MIME type whose rule matched, when the rule came from the shared MIME database.
    public var mimeType: String?
    /// Whether the name or the content suggested it.
    public var evidence: Evidence
    /// The rule, for people: `*.tar.gz`, `extension md`, `magic`, `root-XML svg`, `text`.
    public var rule: String
    /// The glob's weight or the content rule's priority (0 to 100).
    public var strength: Int

    /// Creates a candidate.
    ///
    /// - Parameters:
    ///   - identifier: The type.
    ///   - mimeType: The MIME type whose rule matched.
    ///   - evidence: Name or content.
    ///   - rule: The rule, for people.
    ///   - strength: Its weight or priority.
    package init(
      identifier: TypeIdentifier, mimeType: String? = nil, evidence: Evidence, rule: String,
      strength: Int
    ) {
      self.identifier = identifier
      self.mimeType = mimeType
      self.evidence = evidence
      self.rule = rule
      self.strength = strength
    }
  }

  /// The type.
  public var type: UTType { UTType(resolved: identifier) }
  /// The type's identifier.
  package var identifier: TypeIdentifier
  /// What the decision rests on.
  public var evidence: Evidence
  /// The type's MIME types, preferred first (empty when it has none).
  public var mimeTypes: [String]
  /// Every type the name and the content suggested, best first; the decision is not
  /// always the first (a weaker glob that the content confirms wins over a stronger one).
  public var candidates: [Candidate]

  /// Creates an identification.
  ///
  /// - Parameters:
  ///   - identifier: The type.
  ///   - evidence: What the decision rests on.
  ///   - mimeTypes: The type's MIME types, preferred first.
  ///   - candidates: The types suggested, best first.
  package init(
    identifier: TypeIdentifier, evidence: Evidence, mimeTypes: [String] = [],
    candidates: [Candidate] = []
  ) {
    self.identifier = identifier
    self.evidence = evidence
    self.mimeTypes = mimeTypes
    self.candidates = candidates
  }
}
