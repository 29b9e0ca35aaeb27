import FolioSystem
import Synchronization

/// The counts one operation's managers share, and the observers watching them.
///
/// Every manager of one tree adds the changes of its file and byte counts
/// here, so a snapshot of the whole operation needs no walk of the tree.
/// Hot paths (byte and file counts) are relaxed atomic additions;
/// the lock is taken only to deliver events and build snapshots, which byte
/// updates do at most once per observer interval.
final class ProgressMeter: Sendable {
  private let started = ContinuousClock.now
  private let filesTotal = Atomic<Int>(0)
  private let filesTotalKnown = Atomic<Bool>(false)
  private let filesCompleted = Atomic<Int>(0)
  private let attributesCompleted = Atomic<Int>(0)
  private let bytesTotal = Atomic<UInt64>(0)
  private let bytesTotalKnown = Atomic<Bool>(false)
  private let bytesCompleted = Atomic<UInt64>(0)
  private let observed = Atomic<Bool>(false)
  private let finished = Atomic<Bool>(false)
  private let intervalNanoseconds = Atomic<Int>(Int.max)
  private let lastUpdateNanoseconds = Atomic<Int64>(0)
  private let state = Mutex(State())

  /// How far back the throughput looks, so a slow start does not skew the estimate.
  static let throughputWindowNanoseconds: Int64 = 5_000_000_000
  /// The spacing of the samples the throughput window keeps.
  static let throughputSampleNanoseconds: Int64 = 250_000_000

  private struct State: Sendable {
    var observers: [Int: AsyncStream<ProgressEvent>.Continuation] = [:]
    var nextObserver = 0
    weak var root: ProgressManager?
    var currentFile: String?
    var samples: [(nanoseconds: Int64, bytes: UInt64)] = []
  }

  var isFinished: Bool { finished.load(ordering: .relaxed) }

  private func nanosecondsSinceStart() -> Int64 {
    let elapsed = ContinuousClock.now - started
    let (seconds, attoseconds) = elapsed.components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }

  // MARK: Counting

  /// Adds a change of some manager's total file count (wrapping: a lowered total is a negative change).
  func addFileTotal(_ change: Int) {
    filesTotal.wrappingAdd(change, ordering: .relaxed)
    filesTotalKnown.store(true, ordering: .relaxed)
  }

  /// Adds a change of some manager's total byte count (wrapping, as above).
  func addByteTotal(_ change: UInt64) {
    bytesTotal.wrappingAdd(change, ordering: .relaxed)
    bytesTotalKnown.store(true, ordering: .relaxed)
  }

  /// Adds a change of some manager's completed file count.
  func addCompletedFiles(_ change: Int) {
    filesCompleted.wrappingAdd(change, ordering: .relaxed)
  }

  /// Adds extended attributes stored or set.
  func addExtendedAttributes(_ count: Int) {
    attributesCompleted.wrappingAdd(count, ordering: .relaxed)
  }

  /// Whether an observer follows the operation, and so is told of each file.
  var isObserved: Bool { observed.load(ordering: .relaxed) }

  func setCurrentFile(_ path: String?) {
    guard observed.load(ordering: .relaxed) else { return }
    state.withLock { $0.currentFile = path }
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

  /// Adds a change of some manager's completed byte count; sends an update
  /// when an observer's interval has passed.
  func addCompletedBytes(_ change: UInt64) {
    guard change != 0 else { return }
    bytesCompleted.wrappingAdd(change, ordering: .relaxed)
    guard observed.load(ordering: .relaxed) else { return }
    let now = nanosecondsSinceStart()
    let last = lastUpdateNanoseconds.load(ordering: .relaxed)
    guard now - last >= Int64(intervalNanoseconds.load(ordering: .relaxed)) else { return }
    guard
      lastUpdateNanoseconds.compareExchange(
        expected: last, desired: now, ordering: .relaxed
      ).exchanged
    else { return }
    sendUpdate()
  }

  func completeFile(_ path: String) {
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
    let snapshot = snapshot(fraction: root.fractionCompleted)
    state.withLock { state in
      for continuation in state.observers.values { continuation.yield(.update(snapshot)) }
    }
  }

  // MARK: Snapshots

  func snapshot(fraction: Double) -> ProgressSnapshot {
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
      rate =
        Double(done &- windowStart.bytes) / (Double(now - windowStart.nanoseconds) / 1e9)
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
      remaining = .seconds(Double(totalBytes > done ? totalBytes - done : 0) / rate)
    } else if fraction > 0, fraction < 1, now > 0 {
      remaining = .seconds(Double(now) / 1e9 * (1 - fraction) / fraction)
    }
    var snapshot = ProgressSnapshot(
      fractionCompleted: fraction,
      completedFileCount: filesCompleted.load(ordering: .relaxed), totalFileCount: totalFiles,
      completedByteCount: done, totalByteCount: totalBytes, elapsed: .nanoseconds(now),
      throughput: rate.isFinite && rate > 0 ? UInt64(rate.rounded()) : 0,
      estimatedTimeRemaining: remaining, currentFile: currentFile, isFinished: isFinished)
    snapshot.extendedAttributeCount = attributesCompleted.load(ordering: .relaxed)
    return snapshot
  }

  // MARK: Observers

  func addObserver(
    _ continuation: AsyncStream<ProgressEvent>.Continuation, interval: Duration,
    root: ProgressManager
  ) {
    let (seconds, attoseconds) = interval.components
    let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    intervalNanoseconds.storeMinimum(Int(clamping: nanoseconds))
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
      continuation.yield(.finished(snapshot(fraction: root.fractionCompleted)))
      continuation.finish()
    }
  }

  /// Ends the operation for its observers: sends the final snapshot and closes every stream.
  ///
  /// The root manager calls it when it finishes or goes away; later calls do nothing.
  ///
  /// - Parameter fraction: The root's fraction completed.
  func finish(fraction: Double) {
    guard
      finished.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
    else { return }
    let final = snapshot(fraction: fraction)
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
