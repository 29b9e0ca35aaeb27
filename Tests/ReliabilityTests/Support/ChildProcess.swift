import Foundation

/// How a child process ended, with its output and peak memory.
struct ChildResult: Sendable {
  /// The exit status, or `nil` when a signal ended it.
  var status: Int32?
  /// The signal that ended it, or `nil` when it exited.
  var signal: Int32?
  /// Everything written to standard output.
  var standardOutput: Data
  /// Everything written to standard error.
  var standardError: Data
  /// Peak resident memory in KiB, of the program itself (see ``ChildProcess/run(_:_:environment:)``).
  var peakMemoryKiB: Int

  var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
  var errorText: String { String(decoding: standardError, as: UTF8.self) }
}

/// A child started with `posix_spawn`, so a test can signal it and read its `rusage`.
final class ChildProcess {
  let pid: pid_t
  private let outputURL: URL
  private let errorURL: URL
  private var finished: ChildResult?

  /// Starts a program with this process's environment plus `environment`.
  ///
  /// - Parameters:
  ///   - executable: The program's path.
  ///   - arguments: Its arguments.
  ///   - environment: Variables to add or replace.
  /// - Throws: When it cannot be started.
  init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("folio-child-\(UUID().uuidString)")
    outputURL = scratch.appendingPathExtension("out")
    errorURL = scratch.appendingPathExtension("err")

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 1, outputURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(
      &actions, 2, errorURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

    let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var child: pid_t = 0
    let status = posix_spawn(&child, executable, &actions, nil, argv, envp)
    guard status == 0 else {
      throw ShimFailure("cannot start \(executable): \(String(cString: strerror(status)))")
    }
    pid = child
  }

  /// Runs a program to completion, measuring its own peak memory.
  ///
  /// `posix_spawn` starts a child that shares this (large) test process's memory until it
  /// runs the program, and Linux counts that memory in the child's `ru_maxrss`. So the
  /// program is run under GNU `time`, a small process that forks it: the figure `time`
  /// reports is the program's own (for `sh -c "a | b"`, the largest of the pipeline).
  ///
  /// - Parameters:
  ///   - executable: The program's path.
  ///   - arguments: Its arguments.
  ///   - environment: Variables to add or replace.
  /// - Returns: How it ended.
  /// - Throws: When it cannot be started.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:]
  ) throws -> ChildResult {
    let timer = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: timer) else {
      return try ChildProcess(executable, arguments, environment: environment).wait()
    }
    let report = FileManager.default.temporaryDirectory
      .appendingPathComponent("folio-time-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: report) }
    var result = try ChildProcess(
      timer, ["-f", "%M", "-o", report.path, executable] + arguments,
      environment: environment
    ).wait()
    let text = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
    if let peak = text.split(separator: "\n").last.flatMap({ Int($0) }) {
      result.peakMemoryKiB = peak
    }
    // `time` exits with the program's status; a signal it reports in words.
    if let line = text.split(separator: "\n").first(where: { $0.contains("terminated by signal") }),
      let number = line.split(separator: " ").last.flatMap({ Int32($0) })
    {
      result.signal = number
      result.status = nil
    }
    return result
  }

  /// Sends a signal.
  ///
  /// - Parameter signal: Such as `SIGKILL`.
  func send(_ signal: Int32) {
    if finished == nil { kill(pid, signal) }
  }

  /// Waits for the child to end and collects its output.
  ///
  /// - Returns: How it ended.
  func wait() -> ChildResult {
    if let finished { return finished }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let signal = status & 0x7f
    let result = ChildResult(
      status: signal == 0 ? (status >> 8) & 0xff : nil,
      signal: signal == 0 ? nil : signal,
      standardOutput: (try? Data(contentsOf: outputURL)) ?? Data(),
      standardError: (try? Data(contentsOf: errorURL)) ?? Data(),
      peakMemoryKiB: Int(usage.ru_maxrss))
    try? FileManager.default.removeItem(at: outputURL)
    try? FileManager.default.removeItem(at: errorURL)
    finished = result
    return result
  }

  deinit {
    if finished == nil {
      kill(pid, SIGKILL)
      _ = wait()
    }
  }
}
