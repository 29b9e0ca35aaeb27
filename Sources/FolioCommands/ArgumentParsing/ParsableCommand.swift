/// A command the `folio` tool can run.
///
/// A command is a small value: it declares its options in `configuration`,
/// decodes them from ``ParsedArguments`` in `init(parsing:)`, and does its work
/// in `run(_:)` by calling the library. It prints data to the context's
/// standard output and diagnostics to its standard error, and never exits the
/// process itself: ``FolioMain`` decides the exit code.
public protocol ParsableCommand: Sendable {
  /// The name, help and accepted options of the command.
  static var configuration: CommandConfiguration { get }

  /// Decodes the command from parsed arguments.
  ///
  /// - Parameter arguments: What the user typed, checked against `configuration`.
  /// - Throws: ``UsageError`` when a value does not convert or options conflict.
  init(parsing arguments: ParsedArguments) throws

  /// Runs the command.
  ///
  /// - Parameter context: Output sinks, environment and working directory.
  /// - Returns: Whether the work succeeded.
  /// - Throws: Any error from the library; ``FolioMain`` reports it and exits 1.
  func run(_ context: CommandContext) async throws -> ExitCode
}

extension ParsableCommand {
  /// A group command (one that only holds subcommands) has nothing to decode.
  public init(parsing arguments: ParsedArguments) throws {
    throw UsageError("missing subcommand", command: Self.configuration.name)
  }

  /// A group command is never run: the parser shows its help instead.
  public func run(_ context: CommandContext) async throws -> ExitCode { .usage }
}

/// How a command's run ended; ``FolioMain`` turns it into the process's exit code.
public struct ExitCode: Hashable, Sendable {
  /// The exit code.
  public let code: Int32

  /// Creates a status from an exit code.
  ///
  /// - Parameter code: The exit code.
  public init(code: Int32) { self.code = code }

  /// The work succeeded (0).
  public static let success = ExitCode(code: 0)
  /// The work failed or found errors (1).
  public static let failure = ExitCode(code: 1)
  /// The command line was wrong (64, `EX_USAGE`, as swift-argument-parser uses).
  public static let usage = ExitCode(code: 64)
  /// The run was cancelled by an interrupt (130, 128 + SIGINT).
  public static let interrupted = ExitCode(code: 130)
}
