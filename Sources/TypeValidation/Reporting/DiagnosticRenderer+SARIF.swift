import FolioSystem
import FoundationEssentials
import PropertyLists
import UniformTypes

extension DiagnosticRenderer {
  struct SARIFLog: Encodable {
    struct Run: Encodable {
      var tool: Tool
      var invocations: [Invocation]
      var results: [Result]
      var columnKind = "unicodeCodePoints"
    }
    struct Tool: Encodable {
      var driver: Driver
    }
    struct Driver: Encodable {
      var name: String
      var version: String
      var informationUri: String?
      var rules: [Rule]
    }
    struct Rule: Encodable {
      var id: String
      var shortDescription: Message
      var helpUri: String?
      var defaultConfiguration: Configuration
    }
    struct Configuration: Encodable {
      var level: String
    }
    struct Invocation: Encodable {
      var executionSuccessful: Bool
      var exitCode: Int32
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

  /// A SARIF 2.1.0 log with one run: the tool with its rules (each with its documentation page
  /// as `helpUri`), one invocation with the exit code, and one result per diagnostic whose
  /// message is the diagnostic's message, then `Hint:` and the hint.
  ///
  /// - Parameters:
  ///   - report: What validation found.
  ///   - exitCode: The exit code the run ends with (`0` success, `1` findings fail the run).
  /// - Returns: The text.
  public func sarif(_ report: ValidationReport, exitCode: Int32) -> String {
    var rules = ValidationRule.all
    for diagnostic in report.diagnostics
    where !rules.contains(where: { $0.code == diagnostic.code }) {
      rules.append(ValidationRule(diagnostic.code, diagnostic.severity, diagnostic.message))
    }
    let ruleIndex = Dictionary(
      rules.enumerated().map { ($0.element.code, $0.offset) }, uniquingKeysWith: { a, _ in a })
    let results = report.diagnostics.map { diagnostic -> SARIFLog.Result in
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
        level: Self.sarifLevel(diagnostic.severity),
        message: .init(text: Self.messageText(diagnostic)), locations: locations)
    }
    let known = Set(ValidationRule.all.map(\.code))
    let log = SARIFLog(runs: [
      .init(
        tool: .init(
          driver: .init(
            name: tool.name, version: tool.version, informationUri: tool.informationURI,
            rules: rules.map { rule in
              .init(
                id: rule.code, shortDescription: .init(text: rule.summary),
                helpUri: known.contains(rule.code)
                  ? tool.documentationBaseURI.map { $0 + rule.documentationPath } : nil,
                defaultConfiguration: .init(level: Self.sarifLevel(rule.severity)))
            })),
        invocations: [.init(executionSuccessful: exitCode == 0, exitCode: exitCode)],
        results: results)
    ])
    return Self.encode(log)
  }

  /// The message, then the hint after a sentence break: `message. Hint: hint`.
  static func messageText(_ diagnostic: Diagnostic) -> String {
    let message = DiagnosticText.escaped(diagnostic.message)
    guard let hint = diagnostic.hint else { return message }
    let ending = message.last.map { ".?!".contains($0) } == true ? " " : ". "
    return message + ending + "Hint: " + DiagnosticText.escaped(hint)
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
    // RFC 3986's unreserved characters stay; every other byte of the UTF-8, delimiters
    // such as `;` `:` `#` `@` `&` `+` included, is written `%XX`.
    var encoded = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        encoded += "%" + byte.digits(2, radix: 16)
      }
    }
    return path.hasPrefix("/") ? "file://" + encoded : encoded
  }
}
