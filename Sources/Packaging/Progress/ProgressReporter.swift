import Synchronization

/// Reports how far one piece of work has come, in units, files and bytes.
///
/// The model follows Apple's document progress: a caller hands a worker a
/// ``Subprogress``; the worker calls ``Subprogress/start(totalCount:)`` to get a
/// reporter and calls ``complete(count:)`` as units of its work finish. A
/// reporter hands parts of its own units to children with
/// ``subprogress(assigningCount:)``, so nested work (export, then pack) adds up
/// to one ``fractionCompleted``.
///
/// Beside the units, every reporter of one operation shares a file count and a
/// byte count (total and completed), from which a ``ProgressSnapshot`` derives
/// throughput and the estimated time left. Updating them is a few atomic
/// additions, with no allocation and no lock, so workers may report per 64 KiB
/// chunk. Observers watch through ``events(interval:)`` without polling the
/// workers: file events arrive as they happen, byte updates at most once per
/// interval.
///
/// ```swift
/// let progress = ProgressReporter(totalCount: 1)
/// let watcher = Task { for await event in progress.events() { print(event) } }
/// let result = try await Packer.pack(folder, to: output, options: PackOptions(),
///                                    progress: progress.subprogress(assigningCount: 1))
/// progress.finish()
/// ```
///
/// Cancellation: ``cancel()`` marks a reporter and all its descendants
/// cancelled; synchronous cores call ``checkCancellation()`` between chunks,
/// which also honours the current task's cancellation.
public final class ProgressReporter: Sendable {
  private let unitsTotal: Atomic<Int>
  private let unitsCompleted = Atomic<Int>(0)
  private let cancelled = Atomic<Bool>(false)
  private let children = Mutex<[ChildLink]>([])
  private let parent: ProgressReporter?
  private let assignedCount: Int
  let meter: ProgressMeter

  private struct ChildLink: Sendable {
    weak var reporter: ProgressReporter?
    let identifier: ObjectIdentifier
    let assignedCount: Int
  }

  /// Creates a root reporter for a new operation, with its own file and byte counts.
  ///
  /// - Parameter totalCount: The units of work the operation consists of.
  public init(totalCount: Int) {
    unitsTotal = Atomic(max(0, totalCount))
    parent = nil
    assignedCount = 0
    meter = ProgressMeter()
  }

  init(parent: ProgressReporter, assignedCount: Int, totalCount: Int) {
    unitsTotal = Atomic(max(0, totalCount))
    self.parent = parent
    self.assignedCount = assignedCount
    meter = parent.meter
  }

  deinit {
    parent?.childEnded(ObjectIdentifier(self), assignedCount: assignedCount)
  }

  // MARK: Units

  /// The units of work this reporter stands for.
  public var totalCount: Int { unitsTotal.load(ordering: .relaxed) }

  /// The units completed so far by this reporter itself (children not included).
  public var completedCount: Int { unitsCompleted.load(ordering: .relaxed) }

  /// Changes the total when the work turns out larger or smaller than announced.
  ///
  /// - Parameter totalCount: The new number of units.
  public func setTotalCount(_ totalCount: Int) {
    unitsTotal.store(max(0, totalCount), ordering: .relaxed)
  }

  /// Marks units of work as done.
  ///
  /// - Parameter count: How many units finished; negative counts are ignored.
  public func complete(count: Int) {
    guard count > 0 else { return }
    unitsCompleted.add(count, ordering: .relaxed)
  }

  /// Hands a share of this reporter's units to a child piece of work.
  ///
  /// When the child's reporter goes away (or the subprogress is dropped
  /// without being started), the whole share counts as completed here.
  ///
  /// - Parameter count: How many of this reporter's units the child stands for.
  /// - Returns: The subprogress to give the child; it can be started once.
  public func subprogress(assigningCount count: Int) -> Subprogress {
    Subprogress(parent: self, assignedCount: max(0, count))
  }

  /// How much of the work is done, from 0 to 1, counting children's partial work.
  public var fractionCompleted: Double {
    let total = totalCount
    guard total > 0 else { return meter.isFinished ? 1 : 0 }
    var done = Double(completedCount)
    let links = children.withLock { $0 }
    for link in links {
      guard let child = link.reporter else { continue }
      done += Double(link.assignedCount) * child.fractionCompleted
    }
    return min(1, max(0, done / Double(total)))
  }

  func adopt(_ child: ProgressReporter, assignedCount: Int) {
    children.withLock {
      $0.append(
        ChildLink(
          reporter: child, identifier: ObjectIdentifier(child), assignedCount: assignedCount))
    }
  }

  private func childEnded(_ identifier: ObjectIdentifier, assignedCount: Int) {
    children.withLock { links in
      links.removeAll { $0.identifier == identifier }
    }
    complete(count: assignedCount)
  }

  // MARK: Files and bytes

  /// Adds work that became known to the operation's totals.
  ///
  /// A total stays unknown (`nil` in snapshots) until some reporter adds to it.
  ///
  /// - Parameters:
  ///   - files: Files (entries) to be processed.
  ///   - bytes: Bytes to be processed.
  public func addTotals(files: Int = 0, bytes: Int64 = 0) {
    meter.addTotals(files: files, bytes: bytes)
  }

  /// Announces that work on one file begins.
  ///
  /// - Parameters:
  ///   - path: The file's path as the user will recognise it (an entry name).
  ///   - size: Its size in bytes, if known.
  public func startFile(_ path: String, size: Int64?) {
    meter.startFile(path, size: size)
  }

  /// Adds bytes processed; cheap enough to call for every chunk.
  ///
  /// - Parameter bytes: How many more bytes were processed.
  public func complete(bytes: Int64) {
    meter.complete(bytes: bytes)
  }

  /// Announces that work on one file ended and counts it as completed.
  ///
  /// - Parameter path: The path given to ``startFile(_:size:)``.
  public func completeFile(_ path: String) {
    meter.completeFile(path)
  }

  /// The operation's counts, rates and estimates now.
  public var snapshot: ProgressSnapshot {
    meter.snapshot(fraction: root.fractionCompleted, cancelled: isCancelled)
  }

  var root: ProgressReporter {
    var node = self
    while let next = node.parent { node = next }
    return node
  }

  // MARK: Cancellation

  /// Asks the work under this reporter (and its children) to stop.
  public func cancel() {
    cancelled.store(true, ordering: .relaxed)
  }

  /// Whether this reporter or one of its ancestors was cancelled.
  public var isCancelled: Bool {
    var node: ProgressReporter? = self
    while let current = node {
      if current.cancelled.load(ordering: .relaxed) { return true }
      node = current.parent
    }
    return false
  }

  /// Throws when the work should stop: this reporter (or an ancestor) was
  /// cancelled, or the current task was.
  ///
  /// Synchronous cores call this between chunks.
  ///
  /// - Throws: `CancellationError`.
  public func checkCancellation() throws {
    if isCancelled || Task.isCancelled { throw CancellationError() }
  }

  // MARK: Observation

  /// The operation's events, for a display: file starts and ends as they
  /// happen, byte updates at most once per interval, then one final snapshot.
  ///
  /// The stream ends after ``finish()``. Several observers may watch at once.
  ///
  /// - Parameter interval: The shortest time between two `update` events.
  /// - Returns: A stream of events.
  public func events(interval: Duration = .milliseconds(100)) -> AsyncStream<ProgressEvent> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: ProgressEvent.self, bufferingPolicy: .unbounded)
    meter.addObserver(continuation, interval: interval, root: root)
    return stream
  }

  /// Ends the operation for its observers: sends the final snapshot and
  /// closes every event stream.
  ///
  /// Call it on the root when the work returns or throws. Later calls do nothing.
  public func finish() {
    let root = self.root
    meter.finish(fraction: { root.fractionCompleted }, cancelled: root.isCancelled)
  }
}
