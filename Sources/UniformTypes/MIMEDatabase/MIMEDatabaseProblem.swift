import FolioSystem
public import PropertyLists

/// The kinds of problem found in a shared MIME-info database, each with a stable code.
///
/// None stops a command: a file that cannot be used is left out, a bad element is skipped,
/// and the registry works with what remains (with no database at all, it still knows
/// Apple's system types).
public enum MIMEDatabaseProblem: String, Sendable, CaseIterable {
  /// A source file cannot be read, or is larger than the limit.
  case unreadableFile = "mime-unreadable-file"
  /// A source file is not well-formed XML; it is left out.
  case malformedXML = "mime-malformed-xml"
  /// A source file declares or references an entity; it is left out (no entity is expanded).
  case entity = "mime-entity"
  /// The document element is not `mime-info` in the shared-mime-info namespace.
  case notMIMEInfo = "mime-not-mime-info"
  /// A `type` attribute that is not `media/subtype`.
  case invalidType = "mime-invalid-type"
  /// A `<glob>` without a usable pattern or weight.
  case invalidGlob = "mime-invalid-glob"
  /// A `<magic>` or `<match>` with a bad type, offset, value, mask or priority.
  case invalidMagic = "mime-invalid-magic"
  /// A `<root-XML>` without its two attributes.
  case invalidRootXML = "mime-invalid-root-xml"
  /// `sub-class-of` elements that make a type its own ancestor; the closing one is dropped.
  case subclassCycle = "mime-subclass-cycle"
  /// A bound of ``MIMEDatabaseLimits`` was reached; what goes past it is left out.
  case limitReached = "mime-limit-reached"
  /// Two MIME types that Folio's identifier scheme maps to one identifier; they are merged.
  case identifierCollision = "mime-identifier-collision"

  /// How serious the problem is: losing a whole file is an error, the rest are warnings.
  public var severity: Diagnostic.Severity {
    switch self {
    case .unreadableFile, .malformedXML, .entity, .notMIMEInfo: .error
    default: .warning
    }
  }

  /// A diagnostic of this kind.
  ///
  /// - Parameters:
  ///   - message: What is wrong, naming the element or value.
  ///   - location: Where.
  ///   - hint: How to fix it.
  /// - Returns: The diagnostic.
  func diagnostic(_ message: String, at location: SourceLocation?, hint: String? = nil)
    -> Diagnostic
  {
    Diagnostic(
      severity: severity, code: rawValue, message: message, location: location, hint: hint)
  }
}
