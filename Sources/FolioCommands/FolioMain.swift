import Archives
import FoundationEssentials

/// Runs a `folio` command line and decides its exit code, in one place.
///
/// 0 when the work succeeded (or help and the version were printed), 1 when it
/// failed or found errors, 64 for a usage error, 130 when interrupted.
public enum FolioMain {
  /// Folio's version, printed by `folio --version`.
  public static let version = "0.1.0"
  /// The tool's name, as reports (JSON, SARIF) name it.
  public static let toolName = "folio"
  /// Where Folio's source and documentation are published (SARIF's `informationUri`).
  public static let repositoryURL = "https://github.com/folio-swift/folio"
  /// The base that documentation paths such as `docs/rules/CODE.md` are relative to
  /// (SARIF's `helpUri` of each rule).
  public static let documentationBaseURL = repositoryURL + "/blob/main/"

  /// Parses and runs a command line.
  ///
  /// - Parameters:
  ///   - arguments: The words after the program name.
  ///   - context: Streams, environment and working directory.
  ///   - root: The root command; tests may pass a different tree.
  /// - Returns: The process exit code.
  public static func run(
    _ arguments: [String], context: CommandContext,
    root: any ParsableCommand.Type = FolioCommand.self
  ) async -> Int32 {
    let parser = ArgumentParser(root: root)
    let outcome: ArgumentParser.Outcome
    do {
      outcome = try parser.parse(arguments)
    } catch let error as UsageError {
      return reportUsage(error, root: root, context: context)
    } catch {
      context.standardError.write("error: \(ErrorReport(error).line)\n")
      return ExitCode.failure.code
    }

    switch outcome {
    case .version:
      context.standardOutput.write("folio \(version)\n")
      return ExitCode.success.code
    case .help(let path):
      context.standardOutput.write(HelpFormatter.help(for: path))
      return ExitCode.success.code
    case .manual:
      context.standardOutput.write(ManPage(tree: CommandTree(root: root), version: version).text)
      return ExitCode.success.code
    case .run(let type, let parsed):
      do {
        let command = try type.init(parsing: parsed)
        return try await command.run(context).code
      } catch var error as UsageError {
        if error.commandPath.isEmpty || error.commandPath.count == 1 {
          error.commandPath = parsed.commandPath
        }
        return reportUsage(error, root: root, context: context)
      } catch let error as ReportedFailure {
        return error.exitCode.code
      } catch is CancellationError {
        context.standardError.write("folio: cancelled\n")
        return ExitCode.interrupted.code
      } catch {
        // The stable code ends the line, for scripts (`… No space left on device
        // [file-system]`), as `expand` prints its refusals.
        let report = ErrorReport(error, command: parsed.commandPath)
        let code = report.code == "failed" ? "" : " [\(report.code)]"
        context.standardError.write("error: \(report.line)\(code)\n")
        return ExitCode.failure.code
      }
    }
  }

  private static func reportUsage(
    _ error: UsageError, root: any ParsableCommand.Type, context: CommandContext
  ) -> Int32 {
    var path: [any ParsableCommand.Type] = [root]
    for name in error.commandPath.dropFirst() {
      guard
        let next = path[path.count - 1].configuration.subcommands.first(where: {
          $0.configuration.name == name
        })
      else { break }
      path.append(next)
    }
    let names = path.map { $0.configuration.name }.joined(separator: " ")
    context.standardError.write(
      "error: \(error.message)\n\(HelpFormatter.usage(for: path))\n  See '\(names) --help' for more information.\n"
    )
    return ExitCode.usage.code
  }
}
