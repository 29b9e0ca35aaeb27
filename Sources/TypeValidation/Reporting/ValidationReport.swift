public import PropertyLists
import UniformTypes

/// What validating some files found, ready to print in any format.
public struct ValidationReport: Sendable {
  /// The files validated, as the user named them (or as a folder walk found them), in order.
  public var files: [String]
  /// Every problem, ordered by file, line and column.
  public var diagnostics: [Diagnostic]
  /// How many findings a baseline accepted and left out of ``diagnostics``.
  public var baselined = 0

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - files: The files validated.
  ///   - diagnostics: Every problem found.
  public init(files: [String], diagnostics: [Diagnostic]) {
    self.files = files
    self.diagnostics = diagnostics
  }

  /// How many diagnostics have a severity.
  ///
  /// - Parameter severity: The severity.
  /// - Returns: The count.
  public func count(_ severity: Diagnostic.Severity) -> Int {
    diagnostics.reduce(0) { $0 + ($1.severity == severity ? 1 : 0) }
  }

  /// The number of errors.
  public var errorCount: Int { count(.error) }
  /// The number of warnings.
  public var warningCount: Int { count(.warning) }

  /// Whether the run should fail: any error, or with `strict`, any warning.
  ///
  /// - Parameter strict: Whether warnings fail the run too.
  /// - Returns: `true` when the command should exit 1.
  public func fails(strict: Bool) -> Bool {
    errorCount > 0 || (strict && warningCount > 0)
  }

  /// One line such as `2 errors and 1 warning in 3 files`.
  public var summary: String {
    func plural(_ count: Int, _ word: String) -> String {
      "\(count) \(word)\(count == 1 ? "" : "s")"
    }
    let fileText = plural(files.count, "file")
    let known =
      baselined == 0
      ? "" : " (\(plural(baselined, "known finding")) in the baseline not shown)"
    if diagnostics.isEmpty { return "no problems in \(fileText)\(known)" }
    var parts = [plural(errorCount, "error"), plural(warningCount, "warning")]
    let notes = count(.note)
    if notes > 0 { parts.append(plural(notes, "note")) }
    return parts.joined(separator: ", ") + " in \(fileText)\(known)"
  }
}
