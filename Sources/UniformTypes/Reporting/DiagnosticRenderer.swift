import Foundation
import PropertyLists

/// Renders a ``ValidationReport`` in each ``DiagnosticFormat``.
public struct DiagnosticRenderer: Sendable {
  /// The tool's name, as SARIF and JSON output name it.
  public var toolName: String
  /// The tool's version.
  public var toolVersion: String
  /// Whether human output may use ANSI colour (only on a terminal).
  public var usesColor: Bool

  /// Creates a renderer.
  ///
  /// - Parameters:
  ///   - toolName: The tool's name.
  ///   - toolVersion: The tool's version.
  ///   - usesColor: Whether human output may use colour.
  public init(toolName: String = "folio", toolVersion: String, usesColor: Bool = false) {
    self.toolName = toolName
    self.toolVersion = toolVersion
    self.usesColor = usesColor
  }

  /// Renders a report.
  ///
  /// - Parameters:
  ///   - report: What validation found.
  ///   - format: The format.
  /// - Returns: The text, ending in a newline.
  public func render(_ report: ValidationReport, as format: DiagnosticFormat) -> String {
    switch format {
    case .human: human(report)
    case .json: json(report)
    case .github: github(report)
    case .sarif: sarif(report)
    }
  }

  // MARK: Human

  /// `file:line:column: severity: message [code]`, a `hint:` line, and a summary line.
  ///
  /// - Parameter report: What validation found.
  /// - Returns: The text.
  public func human(_ report: ValidationReport) -> String {
    var text = ""
    for diagnostic in report.diagnostics {
      if let location = diagnostic.location { text += "\(location): " }
      text += color(diagnostic.severity.rawValue, for: diagnostic.severity) + ": "
      text += "\(diagnostic.message) [\(diagnostic.code)]\n"
      if let hint = diagnostic.hint { text += "  hint: \(hint)\n" }
    }
    text += report.summary + "\n"
    return text
  }

  private func color(_ text: String, for severity: Diagnostic.Severity) -> String {
    guard usesColor else { return text }
    let code =
      switch severity {
      case .error: "31"
      case .warning: "33"
      case .note: "36"
      }
    return "\u{1B}[1;\(code)m\(text)\u{1B}[0m"
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
      var message = diagnostic.message
      if let hint = diagnostic.hint { message += " (hint: \(hint))" }
      text += "::\(command) \(properties.joined(separator: ","))::\(escapeData(message))\n"
    }
    return text
  }

  private func escapeData(_ text: String) -> String {
    text.replacingOccurrences(of: "%", with: "%25")
      .replacingOccurrences(of: "\r", with: "%0D")
      .replacingOccurrences(of: "\n", with: "%0A")
  }

  private func escapeProperty(_ text: String) -> String {
    escapeData(text).replacingOccurrences(of: ":", with: "%3A")
      .replacingOccurrences(of: ",", with: "%2C")
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
      tool: .init(name: toolName, version: toolVersion), files: report.files,
      summary: .init(
        files: report.files.count, errors: report.errorCount, warnings: report.warningCount,
        notes: report.count(.note)),
      diagnostics: report.diagnostics.map {
        .init(
          file: $0.location?.file, line: $0.location?.line, column: $0.location?.column,
          byteOffset: $0.location?.byteOffset, severity: $0.severity.rawValue, code: $0.code,
          message: $0.message, hint: $0.hint)
      })
    return encode(document)
  }

  // MARK: SARIF

  struct SARIFLog: Encodable {
    struct Run: Encodable {
      var tool: Tool
      var results: [Result]
      var columnKind = "unicodeCodePoints"
    }
    struct Tool: Encodable {
      var driver: Driver
    }
    struct Driver: Encodable {
      var name: String
      var version: String
      var rules: [Rule]
    }
    struct Rule: Encodable {
      var id: String
      var shortDescription: Message
      var defaultConfiguration: Configuration
    }
    struct Configuration: Encodable {
      var level: String
    }
    struct Message: Encodable {
      var text: String
    }
    struct Result: Encodable {
      var ruleId: String
      var ruleIndex: Int?
      var level: String
      var message: Message
      var locations: [Location]
    }
    struct Location: Encodable {
      var physicalLocation: PhysicalLocation
    }
    struct PhysicalLocation: Encodable {
      var artifactLocation: ArtifactLocation
      var region: Region?
    }
    struct ArtifactLocation: Encodable {
      var uri: String
    }
    struct Region: Encodable {
      var startLine: Int?
      var startColumn: Int?
      var byteOffset: Int?
    }

    var schema = "https://json.schemastore.org/sarif-2.1.0.json"
    var version = "2.1.0"
    var runs: [Run]

    enum CodingKeys: String, CodingKey {
      case schema = "$schema"
      case version
      case runs
    }
  }

  /// A SARIF 2.1.0 log with one run, its rules and one result per diagnostic.
  ///
  /// - Parameter report: What validation found.
  /// - Returns: The text.
  public func sarif(_ report: ValidationReport) -> String {
    var rules = ValidationRule.all
    for diagnostic in report.diagnostics
    where !rules.contains(where: { $0.code == diagnostic.code }) {
      rules.append(ValidationRule(diagnostic.code, diagnostic.severity, diagnostic.message))
    }
    let ruleIndex = Dictionary(
      rules.enumerated().map { ($0.element.code, $0.offset) }, uniquingKeysWith: { a, _ in a })
    let results = report.diagnostics.map { diagnostic -> SARIFLog.Result in
      var text = diagnostic.message
      if let hint = diagnostic.hint { text += " Hint: \(hint)" }
      var locations: [SARIFLog.Location] = []
      if let location = diagnostic.location {
        let region: SARIFLog.Region? =
          location.line == nil && location.byteOffset == nil
          ? nil
          : .init(
            startLine: location.line, startColumn: location.column,
            byteOffset: location.line == nil ? location.byteOffset : nil)
        locations.append(
          .init(
            physicalLocation: .init(
              artifactLocation: .init(uri: Self.uri(for: location.file)), region: region)))
      }
      return .init(
        ruleId: diagnostic.code, ruleIndex: ruleIndex[diagnostic.code],
        level: Self.sarifLevel(diagnostic.severity), message: .init(text: text),
        locations: locations)
    }
    let log = SARIFLog(runs: [
      .init(
        tool: .init(
          driver: .init(
            name: toolName, version: toolVersion,
            rules: rules.map {
              .init(
                id: $0.code, shortDescription: .init(text: $0.summary),
                defaultConfiguration: .init(level: Self.sarifLevel($0.severity)))
            })),
        results: results)
    ])
    return encode(log)
  }

  static func sarifLevel(_ severity: Diagnostic.Severity) -> String {
    switch severity {
    case .error: "error"
    case .warning: "warning"
    case .note: "note"
    }
  }

  /// A URI for a path: a relative reference for a relative path, a `file://` URI
  /// for an absolute one, each component percent-encoded.
  static func uri(for path: String) -> String {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: ";:?#[]@!$&'()*+,=")
    let encoded = path.split(separator: "/", omittingEmptySubsequences: false).map {
      String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0)
    }.joined(separator: "/")
    return path.hasPrefix("/") ? "file://" + encoded : encoded
  }

  private func encode<T: Encodable>(_ value: T) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "{}\n" }
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
