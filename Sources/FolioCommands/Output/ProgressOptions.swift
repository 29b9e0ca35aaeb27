/// The options every command that shows progress declares, so their help agrees.
enum ProgressOptions {
  /// `--progress MODE`, read by ``ProgressDisplay/mode(progress:quiet:sink:)``.
  static let mode = Option.choice(
    "progress", valueName: "MODE", of: ProgressDisplay.Mode.self,
    help:
      "json: one JSON event per line on standard error (Schemas/progress-events.schema.json); live or none."
  )

  /// `-q, --quiet`, the companion of ``mode``.
  static let quiet = Option.flag("quiet", short: "q", help: "Print no progress and no summary.")
}

/// Options several commands share, declared once.
enum SharedOptions {
  /// `--declarations FILE`, repeatable: extra type declarations for the registry.
  static let declarations = Option.repeating(
    "declarations", valueName: "FILE", completion: .file,
    help: "Also load types declared in FILE (an Info.plist); may repeat.")

  /// `--lock-timeout SECONDS`.
  static func lockTimeout(on what: String) -> Option<Duration?> {
    .seconds(
      "lock-timeout",
      help: "How long to wait for another process's lock on \(what) (default 30).")
  }
}
