import FolioSystem
import FoundationEssentials
public import PropertyLists
import UniformTypes

/// Renders a ``ValidationReport`` in each ``DiagnosticFormat``.
///
/// Every format shows text from the validated files escaped (``DiagnosticText``): a line feed
/// or an escape sequence inside a plist string can neither forge a diagnostic line nor restyle
/// a terminal. Styling (colour) is the caller's: ``human(_:styleSeverity:)`` takes a function
/// that decorates the severity word.
public struct DiagnosticRenderer: Sendable {
  /// The tool that produced the report, as JSON and SARIF name it.
  public struct Tool: Sendable {
    /// Its name, such as `folio`.
    public var name: String
    /// Its version.
    public var version: String
    /// Where to read about it (SARIF `informationUri`), an absolute URI.
    public var informationURI: String?
    /// The absolute URI that rule pages (`docs/rules/CODE.md`) are relative to, ending in `/`;
    /// SARIF's `helpUri` of each rule.
    public var documentationBaseURI: String?

    /// Describes a tool.
    ///
    /// - Parameters:
    ///   - name: Its name.
    ///   - version: Its version.
    ///   - informationURI: Where to read about it.
    ///   - documentationBaseURI: The URI rule pages are relative to.
    public init(
      name: String, version: String, informationURI: String? = nil,
      documentationBaseURI: String? = nil
    ) {
      self.name = name
      self.version = version
      self.informationURI = informationURI
      self.documentationBaseURI = documentationBaseURI
    }
  }

  /// The tool that produced the report.
  public var tool: Tool

  /// Creates a renderer.
  ///
  /// - Parameter tool: The tool that produced the reports.
  public init(tool: Tool) {
    self.tool = tool
  }

  /// Renders a report.
  ///
  /// - Parameters:
  ///   - report: What validation found.
  ///   - format: The format.
  ///   - exitCode: The exit code the run ends with (SARIF records it).
  /// - Returns: The text, ending in a newline.
  public func render(_ report: ValidationReport, as format: DiagnosticFormat, exitCode: Int32)
    -> String
  {
    switch format {
    case .human: human(report)
    case .json: json(report)
    case .github: github(report)
    case .sarif: sarif(report, exitCode: exitCode)
    }
  }

  // MARK: Human

  /// `file:line:column: severity: message [code]`, a `hint:` line, and a summary line.
  ///
  /// - Parameters:
  ///   - report: What validation found.
  ///   - styleSeverity: Decorates the severity word (a terminal colours it); plain by default.
  /// - Returns: The text.
  public func human(
    _ report: ValidationReport,
    styleSeverity: (Diagnostic.Severity, String) -> String = { $1 }
  ) -> String {
    var text = ""
    for diagnostic in report.diagnostics {
      if let location = diagnostic.location {
        text += DiagnosticText.escaped(location.description) + ": "
      }
      text += styleSeverity(diagnostic.severity, diagnostic.severity.rawValue) + ": "
      text += "\(DiagnosticText.escaped(diagnostic.message)) [\(diagnostic.code)]\n"
      if let hint = diagnostic.hint { text += "  hint: \(DiagnosticText.escaped(hint))\n" }
    }
    text += report.summary + "\n"
    return text
  }

  // MARK: GitHub

  /// GitHub Actions workflow commands, one per diagnostic.
  ///
  /// - Parameter report: What validation found.
  /// - Returns: The text.
  public func github(_ report: ValidationReport) -> String {
    var text = ""
    for diagnostic in report.diagnostics {
      let command =
        switch diagnostic.severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
      var properties: [String] = []
      if let location = diagnostic.location {
        properties.append("file=\(escapeProperty(location.file))")
        if let line = location.line { properties.append("line=\(line)") }
        if let column = location.column { properties.append("col=\(column)") }
      }
      properties.append("title=\(escapeProperty(diagnostic.code))")
      var message = DiagnosticText.escaped(diagnostic.message)
      if let hint = diagnostic.hint { message += " (hint: \(DiagnosticText.escaped(hint)))" }
      text += "::\(command) \(properties.joined(separator: ","))::\(escapeData(message))\n"
    }
    return text
  }

  private func escapeData(_ text: String) -> String {
    text.replacing("%", with: "%25").replacing("\r", with: "%0D").replacing("\n", with: "%0A")
  }

  private func escapeProperty(_ text: String) -> String {
    escapeData(DiagnosticText.escaped(text)).replacing(":", with: "%3A").replacing(",", with: "%2C")
  }

  // MARK: JSON

  struct JSONReport: Encodable {
    struct Tool: Encodable {
      var name: String
      var version: String
    }
    struct Summary: Encodable {
      var files: Int
      var errors: Int
      var warnings: Int
      var notes: Int
      var baselined: Int
    }
    struct Entry: Encodable {
      var file: String?
      var line: Int?
      var column: Int?
      var byteOffset: Int?
      var severity: String
      var code: String
      var message: String
      var hint: String?
    }
    var version = 1
    var tool: Tool
    var files: [String]
    var summary: Summary
    var diagnostics: [Entry]
  }

  /// One JSON document described by `Schemas/validate-output.schema.json`.
  ///
  /// - Parameter report: What validation found.
  /// - Returns: The text.
  public func json(_ report: ValidationReport) -> String {
    let document = JSONReport(
      tool: .init(name: tool.name, version: tool.version), files: report.files,
      summary: .init(
        files: report.files.count, errors: report.errorCount, warnings: report.warningCount,
        notes: report.count(.note), baselined: report.baselined),
      diagnostics: report.diagnostics.map {
        .init(
          file: $0.location?.file, line: $0.location?.line, column: $0.location?.column,
          byteOffset: $0.location?.byteOffset, severity: $0.severity.rawValue, code: $0.code,
          message: DiagnosticText.escaped($0.message),
          hint: $0.hint.map(DiagnosticText.escaped))
      })
    return Self.encode(document)
  }

  static func encode<T: Encodable>(_ value: T) -> String {
    guard let data = try? JSONText.encode(value) else { return "{}\n" }
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
