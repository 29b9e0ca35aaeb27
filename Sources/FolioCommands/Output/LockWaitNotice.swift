import Archives

/// How a command tells its user that it waits for another process's lock: a
/// `folio: waiting for …` line on standard error (none with `--quiet`), or a
/// `lock-wait` event with `--progress json`.
enum LockWaitNotice {
  /// The words for a wait: `waiting for exclusive lock on 'X' (held by another process)`.
  ///
  /// - Parameter wait: The wait the library reported.
  /// - Returns: The line, without the `folio: ` prefix.
  static func line(_ wait: LockWait) -> String {
    "waiting for \(wait.kind.rawValue) lock on '\(wait.package.path)' (held by another process)"
  }

  /// The lock options of a command.
  ///
  /// - Parameters:
  ///   - timeout: `--lock-timeout`, or `nil` for the default.
  ///   - quiet: Whether `--quiet` was given.
  ///   - standardError: Where the line goes.
  ///   - events: The JSON event stream, with `--progress json`.
  /// - Returns: The options to hand to the library.
  static func options(
    timeout: Duration?, quiet: Bool, standardError: OutputSink, events: JSONEventWriter?
  ) -> LockOptions {
    LockOptions(timeout: timeout ?? LockOptions.defaultTimeout) { wait in
      if let events {
        events.lockWait(wait)
      } else if !quiet {
        standardError.write("folio: \(line(wait))\n")
      }
    }
  }
}
