import FolioSystem
import FoundationEssentials
public import ProgressReporting
import Synchronization

/// Shows a long operation's progress on standard error: a live line on a
/// terminal, one JSON event per line for other programs, or nothing.
///
/// Shared by `pack`, `expand` and `export`:
///
/// ```swift
/// let display = ProgressDisplay(mode: mode, sink: context.standardError, verb: "Packing")
/// let result = try await display.track { progress in
///   try await Packer.pack(source, to: output, progress: progress.subprogress(assigningCount: 1))
/// }
/// ```
///
/// JSON events (`--progress json`) follow `Schemas/progress-events.schema.json` and
/// go through a ``JSONEventWriter``: `file-started`, `bytes`, `file-finished`, then,
/// when the work throws, an `error` event, and last `done` with the status and counts.
public struct ProgressDisplay: Sendable {
  /// How progress is shown.
  public enum Mode: String, Sendable, CaseIterable {
    /// A single line redrawn in place (for a terminal).
    case live
    /// One JSON object per event and line.
    case json
    /// Nothing.
    case none
  }

  /// How progress is shown.
  public var mode: Mode
  /// Where it is shown (standard error).
  public var sink: OutputSink
  /// The word leading the live line (`Packing`).
  public var verb: String
  /// The JSON stream, in `json` mode (made on the sink when not given).
  var events: JSONEventWriter?
  /// The command words, for the hints of a failure's `error` event.
  var command: [String] = []

  /// How often the live line is redrawn at most.
  static let liveInterval: Duration = .milliseconds(100)
  /// How often JSON byte events are written at most.
  static let jsonInterval: Duration = .milliseconds(250)

  /// Creates a display.
  ///
  /// - Parameters:
  ///   - mode: How progress is shown.
  ///   - sink: Where it is shown.
  ///   - verb: The word leading the live line.
  public init(mode: Mode, sink: OutputSink, verb: String = "Working") {
    self.mode = mode
    self.sink = sink
    self.verb = verb
  }

  /// Creates a display writing its JSON events to a command's stream.
  ///
  /// - Parameters:
  ///   - mode: How progress is shown.
  ///   - sink: Where it is shown.
  ///   - verb: The word leading the live line.
  ///   - events: The command's JSON stream, when `mode` is `json`.
  ///   - command: The command words, for failures' hints.
  init(
    mode: Mode, sink: OutputSink, verb: String, events: JSONEventWriter?, command: [String]
  ) {
    self.init(mode: mode, sink: sink, verb: verb)
    self.events = events
    self.command = command
  }

  /// The JSON stream this display writes to.
  private var stream: JSONEventWriter { events ?? JSONEventWriter(sink: sink) }

  /// The mode the usual `--progress` and `--quiet` options ask for.
  ///
  /// - Parameters:
  ///   - progress: The `--progress` value, if given.
  ///   - quiet: Whether `--quiet` was given.
  ///   - sink: Standard error; a live line needs a terminal.
  /// - Returns: JSON or live when asked, nothing when quiet or not on a terminal, else live.
  public static func mode(progress: Mode?, quiet: Bool, sink: OutputSink) -> Mode {
    if let progress { return progress }
    if quiet || !sink.isTerminal { return .none }
    return .live
  }

  /// Runs work with a fresh root manager and shows its progress until it ends.
  ///
  /// - Parameter work: The work, given the root manager to hand out subprogress from.
  /// - Returns: What the work returns.
  /// - Throws: What the work throws; the display is closed first (the live
  ///   line cleared, the JSON `done` event written with its status).
  public func track<T: Sendable>(_ work: (ProgressManager) async throws -> T) async throws -> T {
    let root = ProgressManager(totalCount: 1)
    let live = LiveLine(sink: sink, line: ProgressLine(verb: verb))
    let stream = self.stream
    var watcher: Task<ProgressSnapshot?, Never>?
    var resizeWatcher: Task<Void, Never>?
    if mode != .none {
      let reporter = root.reporter
      let events = reporter.events(
        interval: mode == .live ? Self.liveInterval : Self.jsonInterval)
      let display = self
      watcher = Task {
        await display.show(events, reporter: reporter, live: live, stream: stream)
      }
      if mode == .live && sink.followsResizes {
        let resizes = TerminalSize.resizes()
        resizeWatcher = Task { for await _ in resizes { live.redraw() } }
      }
    }
    defer { resizeWatcher?.cancel() }
    let result: Result<T, any Error>
    do {
      result = .success(try await work(root))
    } catch {
      result = .failure(error)
    }
    // The root finishes by itself when the work's share ends; this covers
    // work that failed before taking its share.
    root.setCounts { completed, total in completed = max(completed, total ?? 0) }
    if let final = await watcher?.value {
      switch result {
      case .success: close(final, status: "ok", live: live, stream: stream)
      case .failure(let error):
        if mode == .json && !(error is CancellationError) && !stream.reportedFailure {
          stream.error(ErrorReport(error, command: command))
        }
        close(
          final, status: error is CancellationError ? "cancelled" : "failed", live: live,
          stream: stream)
      }
    }
    return try result.get()
  }

  /// Forwards one manager's file and byte events to a JSON stream (one input of a
  /// batch, its events carrying the input) until the manager finishes.
  ///
  /// - Parameters:
  ///   - root: The input's own root manager.
  ///   - stream: The input's stream (``JSONEventWriter/forInput(_:)``).
  /// - Returns: A task giving the final snapshot.
  func forward(_ root: ProgressManager, to stream: JSONEventWriter) -> Task<
    ProgressSnapshot?, Never
  > {
    let reporter = root.reporter
    let events = reporter.events(interval: Self.jsonInterval)
    let display = self
    let live = LiveLine(sink: sink, line: ProgressLine(verb: verb))
    return Task { await display.show(events, reporter: reporter, live: live, stream: stream) }
  }

  /// The live line on a terminal: drawn at most once per ``liveInterval`` (a
  /// new file or new bytes), again at once when the terminal is resized, and
  /// finally left in place (success) or cleared (failure).
  private final class LiveLine: Sendable {
    let sink: OutputSink
    let line: ProgressLine
    private let state = Mutex(State())

    private struct State {
      var last: ProgressSnapshot?
      var drawnAt: ContinuousClock.Instant?
      var closed = false
    }

    init(sink: OutputSink, line: ProgressLine) {
      self.sink = sink
      self.line = line
    }

    /// Whether a throttled draw would happen now.
    var isDue: Bool {
      state.withLock { state in
        guard !state.closed else { return false }
        guard let drawnAt = state.drawnAt else { return true }
        return ContinuousClock.now - drawnAt >= ProgressDisplay.liveInterval
      }
    }

    func draw(_ snapshot: ProgressSnapshot) {
      state.withLock { state in
        guard !state.closed else { return }
        state.last = snapshot
        state.drawnAt = .now
        sink.write("\r\u{1B}[K" + line.render(snapshot, columns: sink.columns))
      }
    }

    func redraw() {
      state.withLock { state in
        guard !state.closed, let last = state.last else { return }
        sink.write("\r\u{1B}[K" + line.render(last, columns: sink.columns))
      }
    }

    func close(_ snapshot: ProgressSnapshot, succeeded: Bool) {
      state.withLock { state in
        guard !state.closed else { return }
        state.closed = true
        if succeeded {
          sink.write("\r\u{1B}[K" + line.render(snapshot, columns: sink.columns) + "\n")
        } else if state.last != nil {
          sink.write("\r\u{1B}[K")
        }
      }
    }
  }

  /// Shows events until the operation ends and returns the final snapshot,
  /// which ``close(_:status:live:)`` shows once the work's outcome is known.
  private func show(
    _ events: AsyncStream<ProgressEvent>, reporter: ProgressReporter, live: LiveLine,
    stream: JSONEventWriter
  ) async -> ProgressSnapshot? {
    var final: ProgressSnapshot?
    for await event in events {
      switch (mode, event) {
      case (.json, .fileStarted(let path, let size)):
        var fields: [(String, JSONEventWriter.Value)] = [("path", .string(path))]
        if let size { fields.append(("size", .integer(Int64(clamping: size)))) }
        stream.write("file-started", fields)
      case (.json, .fileFinished(let path)):
        stream.write("file-finished", [("path", .string(path))])
      case (.json, .update(let snapshot)):
        stream.write("bytes", Self.fields(snapshot))
      case (.live, .fileStarted):
        // A new file shows its name, so even a quick run draws one line with a path.
        if live.isDue { live.draw(reporter.snapshot) }
      case (.live, .update(let snapshot)):
        live.draw(snapshot)
      case (_, .finished(let snapshot)):
        final = snapshot
      default:
        break
      }
    }
    return final
  }

  /// Shows the end: the JSON `done` event with the work's status, or the
  /// live line left in place (success) or cleared.
  private func close(
    _ final: ProgressSnapshot, status: String, live: LiveLine, stream: JSONEventWriter
  ) {
    switch mode {
    case .json:
      stream.done(status: status, fields: Self.fields(final))
    case .live:
      live.close(final, succeeded: status == "ok")
    case .none:
      break
    }
  }

  /// The live line at full length: `Packing  1,204/2,001 files  4.1 MiB/9.0 MiB  12.3 MiB/s  0:02 left`.
  ///
  /// - Parameters:
  ///   - snapshot: The progress to show.
  ///   - columns: The terminal's width, to fit the line to (see ``ProgressLine``).
  /// - Returns: The line, without a line break.
  func line(_ snapshot: ProgressSnapshot, columns: Int? = nil) -> String {
    ProgressLine(verb: verb).render(snapshot, columns: columns)
  }

  /// The counts of a `bytes` or `done` event; an unknown total is `null`, never 0.
  static func fields(_ snapshot: ProgressSnapshot) -> [(String, JSONEventWriter.Value)] {
    [
      ("completedFiles", .integer(Int64(clamping: snapshot.completedFileCount))),
      ("completedBytes", .integer(Int64(clamping: snapshot.completedByteCount))),
      ("bytesPerSecond", .integer(Int64(clamping: snapshot.throughput))),
      ("elapsedSeconds", .seconds(snapshot.elapsed)),
      ("totalFiles", snapshot.totalFileCount.map { .integer(Int64(clamping: $0)) } ?? .null),
      ("totalBytes", snapshot.totalByteCount.map { .integer(Int64(clamping: $0)) } ?? .null),
      ("secondsRemaining", snapshot.estimatedTimeRemaining.map { .seconds($0) } ?? .null),
      ("extendedAttributes", .integer(Int64(snapshot.extendedAttributeCount))),
    ]
  }

  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return (Double(seconds) + Double(attoseconds) / 1e18).fractionDigits(3)
  }

  /// `1,234,567`.
  static func count(_ value: Int) -> String {
    let digits = String(value)
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 && digit != "-" { out += "," }
      out.append(digit)
    }
    return out
  }

  /// `512 B`, `4.1 MiB`.
  static func bytes(_ value: some BinaryInteger) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"]
    var amount = Double(value)
    var unit = 0
    while amount >= 1024, unit < units.count - 1 {
      amount /= 1024
      unit += 1
    }
    return unit == 0 ? "\(value) B" : amount.fractionDigits(1) + " " + units[unit]
  }

  /// `0:42`, `1:02:03`.
  static func clock(_ duration: Duration) -> String {
    let total = max(0, Int(duration.components.seconds))
    let (hours, minutes, seconds) = (total / 3600, (total % 3600) / 60, total % 60)
    if hours > 0 { return "\(hours):\(minutes.digits(2)):\(seconds.digits(2))" }
    return "\(minutes):\(seconds.digits(2))"
  }
}
