/// A mistake on the command line: an unknown option, a missing value, a stray argument.
///
/// ``FolioMain`` prints it with the command's usage to standard error and
/// exits 64.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, naming the offending token.
  public var message: String
  /// The path of the command whose usage should be shown (`folio plist convert`).
  public var commandPath: [String]

  /// Creates a usage error.
  ///
  /// - Parameters:
  ///   - message: What is wrong, naming the offending token.
  ///   - command: The name of the command it concerns, if known.
  public init(_ message: String, command: String? = nil) {
    self.message = message
    self.commandPath = command.map { [$0] } ?? []
  }

  public var description: String { message }
}
