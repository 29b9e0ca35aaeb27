internal import CLibXML2
import UniformTypes

/// libxml2 calls for schemas, with every result code checked in one place.
enum LibXML {
  /// One error libxml2 reported, with its line (and column, when libxml2 knows it).
  struct Problem: Error, Sendable {
    var message: String
    var line: Int
    var column: Int
    /// The top-level property-list key whose value breaks the schema, when the failure was
    /// narrowed down to one.
    var key: String? = nil
  }

  /// libxml2's global set-up, done once per process before first use.
  ///
  /// The corresponding C function is `xmlInitParser`.
  static let initialized: Bool = {
    xmlInitParser()
    return true
  }()

  /// Parser options: no network, no DTD loading, no entity substitution, no
  /// messages on standard error, line numbers past 65535.
  static let parseOptions = Int32(
    XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
      | XML_PARSE_BIG_LINES.rawValue)

  /// Checks a pointer libxml2 returned.
  ///
  /// - Parameters:
  ///   - pointer: The result; `nil` means failure.
  ///   - what: What was being done, for the message.
  ///   - problems: Errors the structured handler collected, used for the message.
  /// - Returns: The pointer.
  /// - Throws: ``UniformTypeError`` with `schema-failure`, naming the first problem.
  static func check<Pointer>(_ pointer: Pointer?, _ what: String, problems: [Problem] = [])
    throws -> Pointer
  {
    guard let pointer else {
      let detail = problems.first.map { ": line \($0.line): \($0.message)" } ?? ""
      throw UniformTypeError(.schemaFailure, "libxml2 could not \(what)\(detail)")
    }
    return pointer
  }

  /// Checks the result of `xmlRelaxNGValidateDoc`: 0 valid, positive invalid, negative failure.
  ///
  /// - Parameters:
  ///   - code: The result.
  ///   - problems: The violations the structured handler collected.
  /// - Returns: The violations; empty when valid.
  /// - Throws: ``UniformTypeError`` with `schema-failure` on an internal error.
  static func checkValidation(_ code: Int32, problems: [Problem]) throws -> [Problem] {
    if code == 0 { return [] }
    if code > 0 {
      return problems.isEmpty
        ? [Problem(message: "the document does not match the schema", line: 0, column: 0)]
        : problems
    }
    throw UniformTypeError(
      .schemaFailure,
      "libxml2 failed while validating (code \(code))"
        + (problems.first.map { ": \($0.message)" } ?? ""))
  }

  /// Collects structured errors; handed to libxml2 as the `userData` of a callback.
  final class ErrorCollector {
    var problems: [Problem] = []
    /// libxml2 reports each error once; a cap keeps hostile input from growing the list.
    static let maximumProblems = 1000

    /// The C callback: appends the error to the collector passed as user data.
    static let callback: xmlStructuredErrorFunc = { userData, error in
      guard let userData, let error else { return }
      let collector = Unmanaged<ErrorCollector>.fromOpaque(userData).takeUnretainedValue()
      guard collector.problems.count < maximumProblems else { return }
      let text = error.pointee.message.map { String(cString: $0) } ?? "unknown libxml2 error"
      collector.problems.append(
        Problem(
          message: text.trimmingTrailingNewlines(), line: Int(error.pointee.line),
          column: Int(error.pointee.int2)))
    }
  }
}

extension String {
  fileprivate func trimmingTrailingNewlines() -> String {
    var text = self
    while text.last == "\n" || text.last == " " { text.removeLast() }
    return text
  }
}
