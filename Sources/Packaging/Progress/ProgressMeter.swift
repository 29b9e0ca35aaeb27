import Synchronization

/// The counts one operation's reporters share, and the observers watching them.
///
/// Hot paths (`complete(bytes:)`, file counts) are relaxed atomic additions;
/// the lock is taken only to deliver events and build snapshots, which byte
/// updates do at most once per observer interval.
final class ProgressMeter: Sendable {
  private let started = ContinuousClock.now
  private let filesTotal = Atomic<Int>(0)
  private let filesTotalKnown = Atomic<Bool>(false)
  private let filesCompleted = Atomic<Int>(0)
  private let bytesTotal = Atomic<Int64>(0)
  private let bytesTotalKnown = Atomic<Bool>(false)
  private let bytesCompleted = Atomic<Int64>(0)
  private let observed = Atomic<Bool>(false)
  private let finished = Atomic<Bool>(false)
  private let intervalNanoseconds = Atomic<Int64>(Int64.max)
  private let lastUpdateNanoseconds = Atomic<Int64>(0)
  private let state = Mutex(State())

  /// How far back the throughput looks, so a slow start does not skew the estimate.
  static let throughputWindowNanoseconds: Int64 = 5_000_000_000
  /// The spacing of the samples the throughput window keeps.
  static let throughputSampleNanoseconds: Int64 = 250_000_000

  private struct State: Sendable {
    var observers: [Int: AsyncStream<ProgressEvent>.Continuation] = [:]
    var nextObserver = 0
    weak var root: ProgressReporter?
    var currentFile: String?
    var samples: [(nanoseconds: Int64, bytes: Int64)] = []
  }

  var isFinished: Bool { finished.load(ordering: .relaxed) }

  private func nanosecondsSinceStart() -> Int64 {
    let elapsed = ContinuousClock.now - started
    let (seconds, attoseconds) = elapsed.components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }

  // MARK: Counting

  func addTotals(files: Int, bytes: Int64) {
    if files > 0 { filesTotal.add(files, ordering: .relaxed) }
    filesTotalKnown.store(true, ordering: .relaxed)
    if bytes > 0 { bytesTotal.add(bytes, ordering: .relaxed) }
    bytesTotalKnown.store(true, ordering: .relaxed)
  }

  func startFile(_ path: String, size: Int64?) {
    guard observed.load(ordering: .relaxed) else { return }
    state.withLock { state in
      state.currentFile = path
      for continuation in state.observers.values {
        continuation.yield(.fileStarted(path: path, size: size))
      }
    }
  }

  func complete(bytes: Int64) {
    guard bytes > 0 else { return }
    bytesCompleted.add(bytes, ordering: .relaxed)
    guard observed.load(ordering: .relaxed) else { return }
    let now = nanosecondsSinceStart()
    let last = lastUpdateNanoseconds.load(ordering: .relaxed)
    guard now - last >= intervalNanoseconds.load(ordering: .relaxed) else { return }
    guard
      lastUpdateNanoseconds.compareExchange(
        expected: last, desired: now, ordering: .relaxed
      ).exchanged
    else { return }
    sendUpdate()
  }

  func completeFile(_ path: String) {
    filesCompleted.add(1, ordering: .relaxed)
    guard observed.load(ordering: .relaxed) else { return }
    state.withLock { state in
      for continuation in state.observers.values {
        continuation.yield(.fileFinished(path: path))
      }
    }
  }

  private func sendUpdate() {
    let root = state.withLock { $0.root }
    guard let root else { return }
    let snapshot = snapshot(fraction: root.fractionCompleted, cancelled: root.isCancelled)
    state.withLock { state in
      for continuation in state.observers.values { continuation.yield(.update(snapshot)) }
    }
  }

  // MARK: Snapshots

  func snapshot(fraction: Double, cancelled: Bool) -> ProgressSnapshot {
    let now = nanosecondsSinceStart()
    let done = bytesCompleted.load(ordering: .relaxed)
    let isFinished = finished.load(ordering: .relaxed)
    let (currentFile, windowStart) = state.withLock { state in
      let lastSample = state.samples.last?.nanoseconds ?? Int64.min / 2
      if now - lastSample >= Self.throughputSampleNanoseconds {
        state.samples.append((now, done))
      }
      while state.samples.count > 1,
        now - state.samples[0].nanoseconds > Self.throughputWindowNanoseconds
      {
        state.samples.removeFirst()
      }
      return (state.currentFile, state.samples.first)
    }
    var rate = 0.0
    if let windowStart, now - windowStart.nanoseconds >= Self.throughputSampleNanoseconds {
      rate = Double(done - windowStart.bytes) / (Double(now - windowStart.nanoseconds) / 1e9)
    } else if now > 0 {
      rate = Double(done) / (Double(now) / 1e9)
    }
    let totalBytes =
      bytesTotalKnown.load(ordering: .relaxed) ? bytesTotal.load(ordering: .relaxed) : nil
    let totalFiles =
      filesTotalKnown.load(ordering: .relaxed) ? filesTotal.load(ordering: .relaxed) : nil
    var remaining: Duration?
    if isFinished {
      remaining = .zero
    } else if let totalBytes, rate > 0 {
      remaining = .seconds(Double(max(0, totalBytes - done)) / rate)
    } else if fraction > 0, fraction < 1, now > 0 {
      remaining = .seconds(Double(now) / 1e9 * (1 - fraction) / fraction)
    }
    return ProgressSnapshot(
      fractionCompleted: fraction,
      completedFiles: filesCompleted.load(ordering: .relaxed), totalFiles: totalFiles,
      completedBytes: done, totalBytes: totalBytes, elapsed: .nanoseconds(now),
      bytesPerSecond: max(0, rate), estimatedTimeRemaining: remaining, currentFile: currentFile,
      isCancelled: cancelled, isFinished: isFinished)
  }

  // MARK: Observers

  func addObserver(
    _ continuation: AsyncStream<ProgressEvent>.Continuation, interval: Duration,
    root: ProgressReporter
  ) {
    let (seconds, attoseconds) = interval.components
    let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    var current = intervalNanoseconds.load(ordering: .relaxed)
    while nanoseconds < current {
      let (exchanged, original) = intervalNanoseconds.compareExchange(
        expected: current, desired: nanoseconds, ordering: .relaxed)
      if exchanged { break }
      current = original
    }
    let alreadyFinished: Bool = state.withLock { state in
      state.root = root
      if finished.load(ordering: .relaxed) { return true }
      let key = state.nextObserver
      state.nextObserver += 1
      state.observers[key] = continuation
      continuation.onTermination = { [weak self] _ in
        self?.state.withLock { _ = $0.observers.removeValue(forKey: key) }
      }
      observed.store(true, ordering: .relaxed)
      return false
    }
    if alreadyFinished {
      continuation.yield(
        .finished(snapshot(fraction: root.fractionCompleted, cancelled: root.isCancelled)))
      continuation.finish()
    }
  }

  func finish(fraction: () -> Double, cancelled: Bool) {
    guard
      finished.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
    else { return }
    let final = snapshot(fraction: fraction(), cancelled: cancelled)
    let observers = state.withLock { state in
      let observers = state.observers
      state.observers = [:]
      state.currentFile = nil
      return observers
    }
    observed.store(false, ordering: .relaxed)
    for continuation in observers.values {
      continuation.yield(.finished(final))
      continuation.finish()
    }
  }
}
