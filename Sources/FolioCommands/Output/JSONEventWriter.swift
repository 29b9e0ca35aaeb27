import Archives
import FolioSystem
import Synchronization

/// Writes the `--progress json` protocol (`Schemas/progress-events.schema.json`):
/// one JSON object per line on standard error, keys sorted, the `start` event
/// (with the protocol ``version``) first and the `done` event last.
///
/// While it is on, nothing but these lines reaches standard error: warnings,
/// lock waits and failures become events too. In a batch, each input's events
/// carry that input (``forInput(_:)``).
final class JSONEventWriter: Sendable {
  /// The protocol's version, in the `start` event; fields are only ever added.
  static let version = 1

  /// A value in an event.
  enum Value: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case seconds(Duration)
    case strings([String])
    case null
  }

  private let sink: OutputSink
  private let input: String?
  private let state: Shared

  /// What every writer of one command's stream shares.
  private final class Shared: Sendable {
    let flags = Mutex((started: false, done: false, failed: false))
  }

  /// Creates the writer of a command's stream.
  ///
  /// - Parameter sink: Standard error.
  init(sink: OutputSink) {
    self.sink = sink
    input = nil
    state = Shared()
  }

  private init(sink: OutputSink, input: String?, state: Shared) {
    self.sink = sink
    self.input = input
    self.state = state
  }

  /// A writer whose events carry `input` (one input of a batch), on the same stream.
  func forInput(_ input: String) -> JSONEventWriter {
    JSONEventWriter(sink: sink, input: input, state: state)
  }

  /// Whether an `error` event was written on this stream.
  var reportedFailure: Bool { state.flags.withLock { $0.failed } }

  /// Whether the `done` event was written.
  var isDone: Bool { state.flags.withLock { $0.done } }

  /// The first event: protocol version, tool and command (and a batch's inputs).
  func start(command: String, toolVersion: String, inputs: [String]? = nil) {
    let first = state.flags.withLock { flags in
      defer { flags.started = true }
      return !flags.started
    }
    guard first else { return }
    var fields: [(String, Value)] = [
      ("version", .integer(Int64(Self.version))), ("tool", .string("folio")),
      ("toolVersion", .string(toolVersion)), ("command", .string(command)),
    ]
    if let inputs { fields.append(("inputs", .strings(inputs))) }
    write("start", fields, withInput: false)
  }

  /// A failure: its stable code, the message as the human output prints it, and its path.
  func error(_ report: ErrorReport) {
    state.flags.withLock { $0.failed = true }
    var fields: [(String, Value)] = [
      ("code", .string(report.code)), ("message", .string(report.line)),
    ]
    if let path = report.path { fields.append(("path", .string(path))) }
    write("error", fields)
  }

  /// A warning, as the human output prints it.
  func warning(_ message: String, code: String? = nil, path: String? = nil) {
    var fields: [(String, Value)] = [("message", .string(message))]
    if let code { fields.append(("code", .string(code))) }
    if let path { fields.append(("path", .string(path))) }
    write("warning", fields)
  }

  /// A wait for another process's lock: in words, and what it waits for.
  func lockWait(_ wait: LockWait) {
    write(
      "lock-wait",
      [
        ("message", .string(LockWaitNotice.line(wait))), ("path", .string(wait.package.path)),
        ("lock", .string(wait.kind.rawValue)), ("timeoutSeconds", .seconds(wait.timeout)),
      ])
  }

  /// The last event; later calls write nothing.
  func done(status: String, fields: [(String, Value)]) {
    let first = state.flags.withLock { flags in
      defer { flags.done = true }
      return !flags.done
    }
    guard first else { return }
    write("done", [("status", .string(status))] + fields, withInput: false)
  }

  /// Any other event, carrying the writer's input.
  func write(_ event: String, _ fields: [(String, Value)], withInput: Bool = true) {
    var all = [("event", Value.string(event))] + fields
    if withInput, let input { all.append(("input", .string(input))) }
    let body = all.sorted { $0.0 < $1.0 }.map { "\(Self.quote($0.0)):\(Self.encode($0.1))" }
    sink.write("{" + body.joined(separator: ",") + "}\n")
  }

  private static func encode(_ value: Value) -> String {
    switch value {
    case .string(let text): quote(text)
    case .integer(let number): String(number)
    case .seconds(let duration): ProgressDisplay.seconds(duration)
    case .strings(let texts): "[" + texts.map(quote).joined(separator: ",") + "]"
    case .null: "null"
    }
  }

  /// A JSON string literal, escaped as every JSON output of Folio escapes it.
  static func quote(_ text: String) -> String { JSONText.quote(text) }
}

extension JSONEventWriter {
  /// The counts of a `done` event for a command that failed before any work.
  static let noCounts: [(String, Value)] = [
    ("completedFiles", .integer(0)), ("completedBytes", .integer(0)),
    ("bytesPerSecond", .integer(0)), ("elapsedSeconds", .seconds(.zero)),
    ("totalFiles", .null), ("totalBytes", .null), ("secondsRemaining", .null),
    ("extendedAttributes", .integer(0)),
  ]

  /// Runs a command's work with its JSON stream open when `mode` is `json`: the
  /// `start` event first; a failure as an `error` event, then `done`, and
  /// nothing in words on standard error.
  ///
  /// - Parameters:
  ///   - mode: The progress mode.
  ///   - sink: Standard error.
  ///   - command: The command words (`["folio", "pack"]`).
  ///   - inputs: A batch's inputs, for the `start` event.
  ///   - body: The work, given the stream (`nil` outside `json` mode).
  /// - Returns: The work's exit code.
  /// - Throws: What the work throws outside `json` mode; in it, ``ReportedFailure``.
  static func run(
    mode: ProgressDisplay.Mode, sink: OutputSink, command: [String], inputs: [String]? = nil,
    _ body: (JSONEventWriter?) async throws -> ExitCode
  ) async throws -> ExitCode {
    guard mode == .json else { return try await body(nil) }
    let events = JSONEventWriter(sink: sink)
    events.start(command: command.last ?? "", toolVersion: FolioMain.version, inputs: inputs)
    do {
      let status = try await body(events)
      events.done(status: status == .success ? "ok" : "failed", fields: noCounts)
      return status
    } catch {
      let cancelled = error is CancellationError
      if !cancelled && !events.reportedFailure {
        events.error(ErrorReport(error, command: command))
      }
      events.done(status: cancelled ? "cancelled" : "failed", fields: noCounts)
      throw ReportedFailure(
        exitCode: cancelled ? .interrupted : error is UsageError ? .usage : .failure)
    }
  }
}

/// A failure already reported on the JSON stream: ``FolioMain`` exits with its
/// code and prints nothing more.
struct ReportedFailure: Error, Sendable {
  /// The exit code.
  var exitCode: ExitCode
}
