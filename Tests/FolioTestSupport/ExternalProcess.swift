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
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [executable] + arguments
  if let directory { process.currentDirectoryURL = directory }
  if !environment.isEmpty {
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  }
  let outputURL = FileManager.default.temporaryDirectory
    .appendingPathComponent("folio-proc-\(UUID().uuidString)")
  let errorURL = outputURL.appendingPathExtension("err")
  _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
  _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
  defer {
    try? FileManager.default.removeItem(at: outputURL)
    try? FileManager.default.removeItem(at: errorURL)
  }
  let output = try FileHandle(forWritingTo: outputURL)
  let error = try FileHandle(forWritingTo: errorURL)
  process.standardOutput = output
  process.standardError = error
  let inputPipe = Pipe()
  process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
  try process.run()
  if let input {
    inputPipe.fileHandleForWriting.write(input)
    try? inputPipe.fileHandleForWriting.close()
  }
  process.waitUntilExit()
  try? output.close()
  try? error.close()
  return ProcessResult(
    status: process.terminationStatus,
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
