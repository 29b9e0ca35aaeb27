/// Where a value or a problem sits in a source file.
///
/// Text formats carry a 1-based line and column; binary property lists carry
/// the byte offset of the object instead. Folio prints locations the way
/// compilers do (`Info.plist:12:5`), so editors and CI annotations can jump
/// to them.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
  /// The file as the user named it (or `-` for standard input).
  public var file: String
  /// The 1-based line, or `nil` when the format has no lines.
  public var line: Int?
  /// The 1-based column, or `nil` when unknown.
  public var column: Int?
  /// The byte offset of the object, for binary formats.
  public var byteOffset: Int?

  /// Creates a location.
  ///
  /// - Parameters:
  ///   - file: The file as the user named it.
  ///   - line: The 1-based line, if the format has lines.
  ///   - column: The 1-based column, if known.
  ///   - byteOffset: The byte offset, for binary formats.
  public init(file: String, line: Int? = nil, column: Int? = nil, byteOffset: Int? = nil) {
    self.file = file
    self.line = line
    self.column = column
    self.byteOffset = byteOffset
  }

  /// `file:line:column`, `file:line`, `file@offset` or `file`, whichever is known.
  public var description: String {
    if let line {
      if let column { return "\(file):\(line):\(column)" }
      return "\(file):\(line)"
    }
    if let byteOffset { return "\(file)@\(byteOffset)" }
    return file
  }
}
