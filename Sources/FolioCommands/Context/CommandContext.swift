import FolioSystem
public import FoundationEssentials
import Glibc

/// What a command may touch of the outside world, injected so tests run commands in-process.
public struct CommandContext: Sendable {
  /// Where data goes (results, converted files, listings).
  public var standardOutput: OutputSink
  /// Where diagnostics and progress go.
  public var standardError: OutputSink
  /// Reads all of standard input, for `-` arguments.
  public var readStandardInput: @Sendable () throws -> Data
  /// Reads standard input, but never more than `limit + 1` bytes: inputs with a size
  /// limit (property lists) are refused before the rest of a huge stream is read.
  public var readStandardInputUpTo: @Sendable (_ limit: Int) throws -> Data
  /// The environment (`FOLIO_TYPES_PATH`, `SOURCE_DATE_EPOCH`, `XDG_DATA_HOME`, …).
  public var environment: [String: String]
  /// The directory relative paths are resolved against.
  public var currentDirectory: String

  /// Creates a context.
  ///
  /// - Parameters:
  ///   - standardOutput: Where data goes.
  ///   - standardError: Where diagnostics go.
  ///   - readStandardInput: Reads all of standard input.
  ///   - readStandardInputUpTo: Reads at most `limit + 1` bytes of standard input; by
  ///     default, the first `limit + 1` bytes of `readStandardInput`.
  ///   - environment: The environment.
  ///   - currentDirectory: The directory relative paths are resolved against.
  public init(
    standardOutput: OutputSink, standardError: OutputSink,
    readStandardInput: @escaping @Sendable () throws -> Data = { Data() },
    readStandardInputUpTo: (@Sendable (_ limit: Int) throws -> Data)? = nil,
    environment: [String: String] = [:], currentDirectory: String
  ) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.readStandardInput = readStandardInput
    self.readStandardInputUpTo =
      readStandardInputUpTo ?? { limit in Data(try readStandardInput().prefix(limit + 1)) }
    self.environment = environment
    self.currentDirectory = currentDirectory
  }

  /// Reads standard input to its end, or (for a `limit` below `Int.max`) at most its first
  /// `limit + 1` bytes: enough to tell that it holds more than `limit`.
  private static func readStandardInput(upTo limit: Int) throws -> Data {
    let input = ReadingFile(borrowing: STDIN_FILENO)
    var bytes = Data()
    while limit == .max || bytes.count <= limit {
      let chunk = try input.read(
        upToCount: limit == .max ? 1 << 16 : min(1 << 16, limit + 1 - bytes.count))
      if chunk.isEmpty { break }
      bytes += chunk
    }
    return bytes
  }

  /// The context of this process: its real streams, environment and directory.
  public static func process() -> CommandContext {
    CommandContext(
      standardOutput: .descriptor(STDOUT_FILENO),
      standardError: .descriptor(STDERR_FILENO),
      readStandardInput: { try readStandardInput(upTo: .max) },
      readStandardInputUpTo: { limit in try readStandardInput(upTo: limit) },
      environment: ProcessInfo.processInfo.environment,
      currentDirectory: FileManager.default.currentDirectoryPath)
  }

  /// Resolves a path the user typed against the context's directory.
  ///
  /// - Parameter path: An absolute or relative path.
  /// - Returns: An absolute path, not otherwise normalised.
  public func absolutePath(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    if currentDirectory.hasSuffix("/") { return currentDirectory + path }
    return currentDirectory + "/" + path
  }
}
