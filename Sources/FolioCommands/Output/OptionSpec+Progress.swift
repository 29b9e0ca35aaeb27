extension OptionSpec {
  /// `--progress MODE`, read by ``ProgressDisplay/mode(progress:quiet:sink:)``; every
  /// command that shows progress declares this one option so their help agrees.
  static let progressMode = OptionSpec.value(
    "progress", valueName: "MODE",
    help: "json: one JSON event per line on standard error; live or none.")

  /// `-q, --quiet`, the companion of ``progressMode``.
  static let quiet = OptionSpec.flag(
    "quiet", short: "q", help: "Print no progress and no summary.")
}
