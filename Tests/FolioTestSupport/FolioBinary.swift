import Foundation

/// The built `folio` executable, for the few end-to-end tests that run it as a user would.
public enum FolioBinary {
  /// `.build/debug/folio` (or `FOLIO_BINARY` when set).
  public static var url: URL {
    if let path = ProcessInfo.processInfo.environment["FOLIO_BINARY"] {
      return URL(fileURLWithPath: path)
    }
    return ProjectPaths.root.appendingPathComponent(".build/debug/folio")
  }

  /// Runs `folio` with arguments.
  ///
  /// - Parameters:
  ///   - arguments: The words after `folio`.
  ///   - directory: The working directory.
  ///   - input: Bytes for standard input.
  ///   - environment: Extra environment variables.
  /// - Returns: Its status and output.
  /// - Throws: When it cannot be started.
  public static func run(
    _ arguments: [String], in directory: URL? = nil, input: Data? = nil,
    environment: [String: String] = [:]
  ) throws -> ProcessResult {
    try runProcess(url.path, arguments, in: directory, input: input, environment: environment)
  }
}
