import FolioSystem

extension SharedOptions {
  /// The ``ReplacePolicy`` a command's `--force` and `--update` ask for: the one place
  /// where the flags of every command that writes an output become the library's policy,
  /// which then checks the output itself (`output-exists`; ``ErrorReport`` adds the hint).
  ///
  /// - Parameters:
  ///   - arguments: What the user typed.
  ///   - force: The command's `-f, --force` (its help names the output: OUT, DEST).
  ///   - update: The command's `--update`, if it has one.
  /// - Returns: `replace` with `--force`, `update` with `--update`, else `refuse`.
  /// - Throws: ``UsageError`` when both are given.
  static func replacePolicy(
    _ arguments: ParsedArguments, force: Option<Bool>, update: Option<Bool>? = nil
  ) throws -> ReplacePolicy {
    let forcing = try arguments[force]
    let updating = try update.map { try arguments[$0] } ?? false
    if forcing && updating {
      throw UsageError("--force and --update cannot be used together")
    }
    return forcing ? .replace : updating ? .update : .refuse
  }
}
