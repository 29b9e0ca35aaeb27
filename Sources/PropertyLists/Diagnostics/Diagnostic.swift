public import FolioSystem

/// One problem found in an input, reported the way a compiler reports it.
///
/// Diagnostics are values: readers, validators and exporters collect them and
/// the command line decides how to print them (human, JSON, GitHub, SARIF) and
/// which exit code they lead to.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
  /// How serious a diagnostic is.
  public enum Severity: String, Hashable, Sendable, Comparable, CaseIterable {
    case note
    case warning
    case error

    private var rank: Int {
      switch self {
      case .note: 0
      case .warning: 1
      case .error: 2
      }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
  }

  /// How serious the problem is.
  public var severity: Severity
  /// A stable rule code such as `FOLIO-PLIST-DUPLICATE-KEY`, for suppressions and CI.
  public var code: String
  /// One line naming what is wrong and where (the key, type or entry).
  public var message: String
  /// Where the problem is, when it has a place in a file.
  public var location: SourceLocation?
  /// One line telling how to fix it, when there is an obvious fix.
  public var hint: String?

  /// Creates a diagnostic.
  ///
  /// - Parameters:
  ///   - severity: How serious the problem is.
  ///   - code: A stable rule code.
  ///   - message: One line naming what is wrong.
  ///   - location: Where the problem is.
  ///   - hint: How to fix it.
  public init(
    severity: Severity, code: String, message: String, location: SourceLocation? = nil,
    hint: String? = nil
  ) {
    self.severity = severity
    self.code = code
    self.message = message
    self.location = location
    self.hint = hint
  }

  /// `file:line:column: severity: message [code]`, as compilers print it.
  public var description: String {
    var text = ""
    if let location { text += "\(location): " }
    text += "\(severity.rawValue): \(message) [\(code)]"
    return text
  }
}
