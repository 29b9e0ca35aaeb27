public import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A program the tests start, spawned with `posix_spawn` and reaped with `waitpid`.
///
/// Foundation's `Process.waitUntilExit` hung once in a full test run on an instantly exiting
/// child (a zombie it never reported), stalling the run until CI's time ran out. Nothing here
/// depends on a signal handler or a run loop: ``wait()`` blocks in `waitpid` until the child
/// has exited, however fast it did.
public final class ChildProcess: @unchecked Sendable {
  /// Where one of the child's standard streams goes.
  public enum Stream: Sendable {
    /// `/dev/null`.
    case null
    /// A file, created or truncated (for output) or read from the start (for input).
    case file(URL)
    /// A pipe whose other end ``standardErrorPipe`` (or ``standardOutputPipe``) reads.
    case pipe
  }

  /// Why a program could not be started.
  public struct StartFailure: Error, CustomStringConvertible {
    /// The program and the cause.
    public var description: String
  }

  /// The child's process ID.
  public let pid: pid_t
  /// The reading end of the child's standard output, when it is ``Stream/pipe``.
  public let standardOutputPipe: FileHandle?
  /// The reading end of the child's standard error, when it is ``Stream/pipe``.
  public let standardErrorPipe: FileHandle?
  private let lock = NSLock()
  private var reaped: Int32?

  /// Starts a program.
  ///
  /// - Parameters:
  ///   - executable: A program name looked up on `PATH`, or a path.
  ///   - arguments: Its arguments.
  ///   - directory: Its working directory, if not this process's.
  ///   - environment: Variables added to (or replacing) this process's environment.
  ///   - standardInput: Its standard input (``Stream/pipe`` is not offered: a file cannot
  ///     block the writer or kill it with `SIGPIPE`).
  ///   - standardOutput: Its standard output.
  ///   - standardError: Its standard error.
  /// - Throws: ``StartFailure`` naming the program when it cannot be started.
  public init(
    _ executable: String, _ arguments: [String], in directory: URL? = nil,
    environment: [String: String] = [:], standardInput: Stream = .null,
    standardOutput: Stream = .null, standardError: Stream = .null
  ) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var parentEnds: [Int32: Int32] = [:]  // child's descriptor → reading end kept here
    var childEnds: [Int32] = []
    func route(_ stream: Stream, to target: Int32, output: Bool) throws {
      switch stream {
      case .null:
        posix_spawn_file_actions_addopen(
          &actions, target, "/dev/null", output ? O_WRONLY : O_RDONLY, 0)
      case .file(let url):
        let flags = output ? (O_WRONLY | O_CREAT | O_TRUNC) : O_RDONLY
        posix_spawn_file_actions_addopen(&actions, target, url.path, flags, 0o644)
      case .pipe:
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
          throw StartFailure(
            description: "\(executable): pipe: \(String(cString: strerror(errno)))")
        }
        // Closed in children started later (dup2 gives this child its own copy).
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        posix_spawn_file_actions_adddup2(&actions, ends[1], target)
        parentEnds[target] = ends[0]
        childEnds.append(ends[1])
      }
    }
    try route(standardInput, to: 0, output: false)
    try route(standardOutput, to: 1, output: true)
    try route(standardError, to: 2, output: true)

    var variables = ProcessInfo.processInfo.environment
    variables.merge(environment) { $1 }
    // `env` looks the name up on PATH, as a shell would, reports a missing program, and
    // changes the working directory (`-C`; glibc's addchdir_np is not visible to Swift).
    let directoryArguments = directory.map { ["-C", $0.path] } ?? []
    let argv =
      (["/usr/bin/env"] + directoryArguments + [executable] + arguments).map { strdup($0) }
      + [nil]
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, envp)
    childEnds.forEach { close($0) }
    guard result == 0 else {
      parentEnds.values.forEach { close($0) }
      throw StartFailure(description: "\(executable): \(String(cString: strerror(result)))")
    }
    self.pid = pid
    standardOutputPipe = parentEnds[1].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    standardErrorPipe = parentEnds[2].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
  }

  /// Sends the child `SIGINT`, as Control-C in a terminal does.
  public func interrupt() {
    kill(pid, SIGINT)
  }

  /// Waits for the child to exit and reaps it.
  ///
  /// - Returns: Its exit status, or 128 plus the signal's number when a signal ended it (as a
  ///   shell reports it). Later calls return the same value.
  @discardableResult
  public func wait() -> Int32 {
    lock.lock()
    defer { lock.unlock() }
    if let reaped { return reaped }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let low = status & 0x7f
    let code = low == 0 ? (status >> 8) & 0xff : 128 + low
    reaped = code
    return code
  }
}
