public import Foundation

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

  /// The context of this process: its real streams, environment and directory.
  public static func process() -> CommandContext {
    CommandContext(
      standardOutput: .descriptor(STDOUT_FILENO),
      standardError: .descriptor(STDERR_FILENO),
      readStandardInput: { FileHandle.standardInput.readDataToEndOfFile() },
      readStandardInputUpTo: { limit in
        var data = Data()
        while data.count <= limit,
          let chunk = try FileHandle.standardInput.read(
            upToCount: min(1 << 16, limit + 1 - data.count)),
          !chunk.isEmpty
        {
          data.append(chunk)
        }
        return data
      },
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
