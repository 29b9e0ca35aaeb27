public import PropertyLists
import UniformTypes

/// Which rules run and at what severity, as linters let a team decide.
///
/// A disabled rule reports nothing; a rule given a severity reports every one of its findings
/// at that severity. Settings apply in order, so a later one wins (a configuration file first,
/// then the command line).
public struct RuleConfiguration: Sendable, Hashable {
  /// What one setting does to a rule.
  public enum Setting: Sendable, Hashable {
    /// The rule reports nothing.
    case disabled
    /// The rule reports at this severity.
    case severity(Diagnostic.Severity)
  }

  /// The setting of each rule that has one, by code.
  public private(set) var settings: [String: Setting] = [:]

  /// Creates a configuration in which every rule runs at its usual severity.
  public init() {}

  /// Sets a rule.
  ///
  /// - Parameters:
  ///   - setting: What the rule does.
  ///   - code: The rule's code.
  /// - Throws: ``UniformTypeError`` with `invalid-configuration` when no rule has the code,
  ///   naming the closest code.
  public mutating func set(_ setting: Setting, for code: String) throws {
    try Self.checkRuleCode(code)
    settings[code] = setting
  }

  /// Throws unless a rule has the code.
  ///
  /// - Parameter code: A rule code.
  /// - Throws: ``UniformTypeError`` with `invalid-configuration`, suggesting the closest code.
  public static func checkRuleCode(_ code: String) throws {
    guard ValidationRule.named(code) == nil else { return }
    let closest = ValidationRule.all.map(\.code).min {
      editDistance($0, code) < editDistance($1, code)
    }
    var message = "no rule is named \(DiagnosticText.quoted(code))"
    if let closest, editDistance(closest, code) <= 3 { message += "; did you mean \(closest)?" }
    throw UniformTypeError(.invalidConfiguration, message)
  }

  /// Whether any setting is made.
  public var isEmpty: Bool { settings.isEmpty }

  /// The diagnostics as configured: disabled rules dropped, severities changed.
  ///
  /// - Parameter diagnostics: What the rules found.
  /// - Returns: The diagnostics to report, in the same order.
  public func apply(to diagnostics: [Diagnostic]) -> [Diagnostic] {
    guard !settings.isEmpty else { return diagnostics }
    return diagnostics.compactMap { diagnostic in
      switch settings[diagnostic.code] {
      case nil: return diagnostic
      case .disabled: return nil
      case .severity(let severity):
        var changed = diagnostic
        changed.severity = severity
        return changed
      }
    }
  }
}
