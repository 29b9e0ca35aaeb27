/// A failure the command layer itself finds (a folder typed only by its name), reported
/// like a library error: `error: message`, exit 1.
struct CommandFailure: Error, Sendable, CustomStringConvertible {
  /// A stable code, as library errors have (`no-route`).
  var code: String
  /// What went wrong, naming the path, with the option that would help.
  var message: String

  var description: String { message }
}
