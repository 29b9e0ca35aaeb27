/// A property list read from a file: its root value, its format and any warnings.
public struct PropertyListDocument: Sendable {
  /// The top-level value, with source locations on every value and key.
  public var root: PropertyListValue
  /// The format the bytes were in.
  public var format: PropertyListFormat
  /// Non-fatal findings, such as a key that repeats inside one dictionary.
  public var diagnostics: [Diagnostic]

  /// Creates a document.
  ///
  /// - Parameters:
  ///   - root: The top-level value.
  ///   - format: The format the bytes were in.
  ///   - diagnostics: Non-fatal findings.
  public init(root: PropertyListValue, format: PropertyListFormat, diagnostics: [Diagnostic] = []) {
    self.root = root
    self.format = format
    self.diagnostics = diagnostics
  }
}
