import UniformTypes
/// How `folio validate` prints what it found.
public enum DiagnosticFormat: String, Sendable, CaseIterable {
  /// `file:line:column: error: message [code]` and a hint line, for people (standard error).
  case human
  /// One JSON document (see `Schemas/validate-output.schema.json`), on standard output.
  case json
  /// GitHub Actions workflow commands (`::error file=…,line=…::…`), on standard output.
  case github
  /// A SARIF 2.1.0 log, on standard output, for code-scanning tools.
  case sarif
}
