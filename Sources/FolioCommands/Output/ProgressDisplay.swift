import Foundation
import Packaging
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
/// JSON events (`--progress json`), keys sorted, one object per line:
/// `{"event":"file-started","path":…,"size":…}`,
/// `{"event":"bytes","completedBytes":…,"totalBytes":…,"completedFiles":…,"totalFiles":…,"bytesPerSecond":…,"secondsRemaining":…}`,
/// `{"event":"file-finished","path":…}`, and last
/// `{"event":"done","status":"ok"|"failed"|"cancelled",…counts}`.
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
    var watcher: Task<ProgressSnapshot?, Never>?
    var resizeWatcher: Task<Void, Never>?
    if mode != .none {
      let reporter = root.reporter
      let events = reporter.events(
        interval: mode == .live ? Self.liveInterval : Self.jsonInterval)
      let display = self
      watcher = Task { await display.show(events, reporter: reporter, live: live) }
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
      case .success: close(final, status: "ok", live: live)
      case .failure(let error):
        close(final, status: error is CancellationError ? "cancelled" : "failed", live: live)
      }
    }
    return try result.get()
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
    _ events: AsyncStream<ProgressEvent>, reporter: ProgressReporter, live: LiveLine
  ) async -> ProgressSnapshot? {
    var final: ProgressSnapshot?
    for await event in events {
      switch (mode, event) {
      case (.json, .fileStarted(let path, let size)):
        var fields = [("event", Self.quote("file-started")), ("path", Self.quote(path))]
        if let size { fields.append(("size", String(size))) }
        sink.write(Self.object(fields))
      case (.json, .fileFinished(let path)):
        sink.write(
          Self.object([("event", Self.quote("file-finished")), ("path", Self.quote(path))]))
      case (.json, .update(let snapshot)):
        sink.write(Self.object([("event", Self.quote("bytes"))] + Self.fields(snapshot)))
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
  private func close(_ final: ProgressSnapshot, status: String, live: LiveLine) {
    switch mode {
    case .json:
      sink.write(
        Self.object(
          [("event", Self.quote("done")), ("status", Self.quote(status))] + Self.fields(final)))
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

  static func fields(_ snapshot: ProgressSnapshot) -> [(String, String)] {
    let totalFiles: String = snapshot.totalFileCount.map { String($0) } ?? "null"
    let totalBytes: String = snapshot.totalByteCount.map { String($0) } ?? "null"
    let remaining: String = snapshot.estimatedTimeRemaining.map { seconds($0) } ?? "null"
    return [
      ("completedFiles", String(snapshot.completedFileCount)),
      ("completedBytes", String(snapshot.completedByteCount)),
      ("bytesPerSecond", String(snapshot.throughput)),
      ("elapsedSeconds", seconds(snapshot.elapsed)),
      ("totalFiles", totalFiles),
      ("totalBytes", totalBytes),
      ("secondsRemaining", remaining),
    ]
  }

  static func object(_ fields: [(String, String)]) -> String {
    "{" + fields.sorted { $0.0 < $1.0 }.map { "\(quote($0.0)):\($0.1)" }.joined(separator: ",")
      + "}\n"
  }

  /// A JSON string literal, with control characters escaped.
  static func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let control where control.value < 0x20 || control.value == 0x7F:
        out += String(format: "\\u%04x", control.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.3f", Double(seconds) + Double(attoseconds) / 1e18)
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
    return unit == 0 ? "\(value) B" : String(format: "%.1f ", amount) + units[unit]
  }

  /// `0:42`, `1:02:03`.
  static func clock(_ duration: Duration) -> String {
    let total = max(0, Int(duration.components.seconds))
    let (hours, minutes, seconds) = (total / 3600, (total % 3600) / 60, total % 60)
    if hours > 0 { return String(format: "%d:%02d:%02d", hours, minutes, seconds) }
    return String(format: "%d:%02d", minutes, seconds)
  }
}
