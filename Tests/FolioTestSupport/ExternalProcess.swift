public import Foundation

/// The result of running another program, such as an oracle (`bsdtar`, `unzip`, `plutil`).
public struct ProcessResult: Sendable {
  /// The exit status.
  public var status: Int32
  /// Everything written to standard output.
  public var standardOutput: Data
  /// Everything written to standard error.
  public var standardError: Data

  /// Standard output as UTF-8 text.
  public var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
  /// Standard error as UTF-8 text.
  public var errorText: String { String(decoding: standardError, as: UTF8.self) }
}

/// Runs a program to completion, capturing its output.
///
/// - Parameters:
///   - executable: A program name looked up on `PATH`, or a path.
///   - arguments: Its arguments.
///   - directory: Its working directory, if not this process's.
///   - input: Bytes for its standard input.
///   - environment: Extra environment variables.
/// - Returns: Its status and output.
/// - Throws: When the program cannot be started.
public func runProcess(
  _ executable: String, _ arguments: [String], in directory: URL? = nil, input: Data? = nil,
  environment: [String: String] = [:]
) throws -> ProcessResult {
  // Output goes to files, not pipes, so a chatty program never blocks on a full pipe while
  // this waits; input comes from a file, so a program that exits without reading it cannot
  // kill this process with SIGPIPE.
  let base = FileManager.default.temporaryDirectory
    .appendingPathComponent("folio-proc-\(UUID().uuidString)")
  let outputURL = base.appendingPathExtension("out")
  let errorURL = base.appendingPathExtension("err")
  let inputURL = base.appendingPathExtension("in")
  defer {
    for url in [outputURL, errorURL, inputURL] { try? FileManager.default.removeItem(at: url) }
  }
  var standardInput = ChildProcess.Stream.null
  if let input {
    try input.write(to: inputURL)
    standardInput = .file(inputURL)
  }
  let child = try ChildProcess(
    executable, arguments, in: directory, environment: environment,
    standardInput: standardInput, standardOutput: .file(outputURL),
    standardError: .file(errorURL))
  let status = child.wait()
  return ProcessResult(
    status: status,
    standardOutput: (try? Data(contentsOf: outputURL)) ?? Data(),
    standardError: (try? Data(contentsOf: errorURL)) ?? Data())
}

/// Whether a program can be found on `PATH`.
///
/// - Parameter name: The program's name.
/// - Returns: `true` when `command -v` finds it.
public func programExists(_ name: String) -> Bool {
  (try? runProcess("sh", ["-c", "command -v \(name)"]).status) == 0
}
