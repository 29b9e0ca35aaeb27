public import Observation
import Synchronization

/// Counts how far one piece of work has come, in units, and hands shares of
/// those units to the work it calls.
///
/// Folio's progress follows Foundation's `ProgressManager` (Swift Foundation
/// proposal SF-0023), which Foundation does not yet offer on Linux, with the
/// same names and roles:
///
/// - a caller hands a worker a ``Subprogress``; the worker calls
///   ``Subprogress/start(totalCount:)`` to get its manager and calls
///   ``complete(count:)`` as units of its work finish;
/// - a manager hands parts of its units to callees with
///   ``subprogress(assigningCount:)``, so nested work (export, then pack) adds
///   up to one ``fractionCompleted``;
/// - observers read a manager through its ``reporter``, a read-only
///   ``ProgressReporter``.
///
/// Beside the units, a manager holds additional properties
/// (``Properties``): file and byte counts, throughput, time remaining, and
/// any a program declares. They are read and written as members
/// (`manager.completedByteCount += 4096`) and summed over a subtree with
/// `summary(of:)`. Writing the four count properties is a few atomic
/// operations with no lock and no allocation, so workers may report per
/// 64 KiB chunk.
///
/// ```swift
/// let manager = ProgressManager(totalCount: 1)
/// let watcher = Task { for await event in manager.reporter.events() { print(event) } }
/// let result = try await Packer.pack(folder, to: output,
///                                    progress: manager.subprogress(assigningCount: 1))
/// await watcher.value  // ends by itself: the pack's share completed
/// ```
///
/// Where a Foundation that declares its own `ProgressManager` is imported beside Folio
/// (Apple's platforms from their 2026 releases; perhaps a later Swift on Linux), the plain
/// name is ambiguous: write `Folio.ProgressManager` (and `Folio.Subprogress`). The two are
/// not interchangeable; Folio's calls take Folio's.
///
/// A manager finishes when its completed count reaches its total; a
/// subprogress dropped without being started, and a child manager that goes
/// away, count their whole share as completed. The root's observers are told
/// when the root finishes or goes away, so nobody needs to call a `finish()`
/// and no observer waits forever.
///
/// Folio's own operations that take a ``Subprogress`` (``Packer``, ``Expander``, and the
/// document and export calls above them) end their manager before they return, whether
/// they succeed, fail or are cancelled: when the call returns, its whole share counts as
/// completed in the parent and the parent's observers have been told. A failed or
/// cancelled call's share counts as completed too, as Foundation counts a manager that
/// goes away before its work is done; the error, not the fraction, says the work failed.
///
/// As Foundation's is, the manager is `Observable`: ``totalCount``, ``completedCount``,
/// ``fractionCompleted``, ``isFinished`` and ``isIndeterminate`` are tracked by
/// `withObservationTracking`, and a change anywhere below a manager (a child's or
/// grandchild's progress) is a change of its ``fractionCompleted``.
@dynamicMemberLookup
public final class ProgressManager: Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible, Observable
{
  /// The total, or ``indeterminate`` when it is not known.
  private let unitsTotal: Atomic<Int>
  private let unitsCompleted = Atomic<Int>(0)
  private let cancelled = Atomic<Bool>(false)
  /// Whether the manager's share was handed back to its parent (or its observers told).
  private let ended = Atomic<Bool>(false)
  private let registrar = ObservationRegistrar()
  let children = Mutex<[ChildLink]>([])
  /// The managers this one was assigned to with `assign(count:to:)`, told when it finishes.
  let assignments = Mutex<[ProgressAssignment]>([])
  let parent: ProgressManager?
  private let assignedCount: Int
  /// The counts, rates and observers shared by every manager of one tree.
  let meter: ProgressMeter

  // The four count properties of this manager alone (the hot ones), then the rest.
  let fileTotal = Atomic<Int>(0)
  let fileCompleted = Atomic<Int>(0)
  let byteTotal = Atomic<UInt64>(0)
  let byteCompleted = Atomic<UInt64>(0)
  let store = Mutex(PropertyStore())

  private static let indeterminate = Int.min

  struct ChildLink: Sendable {
    weak var manager: ProgressManager?
    let identifier: ObjectIdentifier
    let assignedCount: Int
    /// A reporter's manager assigned with `assign(count:to:)`, held while it works.
    var assigned: ProgressManager? = nil
  }

  /// Creates a root manager for a new piece of work.
  ///
  /// - Parameter totalCount: The units of work, or `nil` while unknown (the
  ///   manager is then indeterminate).
  public convenience init(totalCount: Int?) {
    self.init(parent: nil, assignedCount: 0, totalCount: totalCount, meter: ProgressMeter())
  }

  init(parent: ProgressManager?, assignedCount: Int, totalCount: Int?, meter: ProgressMeter) {
    unitsTotal = Atomic(totalCount.map { max(0, $0) } ?? Self.indeterminate)
    self.parent = parent
    self.assignedCount = assignedCount
    self.meter = meter
  }

  deinit {
    end()
  }

  /// Ends the manager now, as if it went away.
  ///
  /// A child's summaries and whole share go to its parent; a root's observers get the
  /// final snapshot. Children still alive end first.
  /// Later calls, and the deinitializer after it, do nothing.
  ///
  /// An operation calls it before it returns, so its caller sees the share completed then,
  /// not whenever the last reference (held by a closure on another thread) goes away.
  package func end() {
    guard
      ended.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        .exchanged
    else { return }
    for child in liveChildren { child.end() }
    guard let parent else {
      meter.finish(fraction: fractionCompleted)
      return
    }
    retireProperties(into: parent)
    parent.childEnded(ObjectIdentifier(self), assignedCount: assignedCount)
  }

  /// Whether ``end()`` ran (or the manager is going away).
  package var hasEnded: Bool { ended.load(ordering: .acquiring) }

  // MARK: Units

  /// The total units of work, or `nil` when the manager is indeterminate.
  public var totalCount: Int? {
    registrar.access(self, keyPath: \.totalCount)
    let total = unitsTotal.load(ordering: .relaxed)
    return total == Self.indeterminate ? nil : total
  }

  /// The units completed so far.
  ///
  /// They are this manager's own and the whole shares of children that
  /// ended; children's partial work is in ``fractionCompleted`` instead.
  public var completedCount: Int {
    registrar.access(self, keyPath: \.completedCount)
    return unitsCompleted.load(ordering: .relaxed)
  }

  /// Whether the total is unknown.
  public var isIndeterminate: Bool {
    registrar.access(self, keyPath: \.isIndeterminate)
    return totalCount == nil
  }

  /// Whether the completed count has reached a known total.
  public var isFinished: Bool {
    registrar.access(self, keyPath: \.isFinished)
    guard let total = totalCount else { return false }
    return completedCount >= total
  }

  /// How much of the work is done, from 0 to 1, counting children's partial work.
  ///
  /// An indeterminate manager, or one with a total of 0, reports 0 until its
  /// work ends.
  public var fractionCompleted: Double {
    registrar.access(self, keyPath: \.fractionCompleted)
    guard let total = totalCount, total > 0 else { return meter.isFinished ? 1 : 0 }
    var done = Double(completedCount)
    let links = children.withLock { $0 }
    for link in links {
      guard let child = link.manager else { continue }
      done += Double(link.assignedCount) * child.fractionCompleted
    }
    return min(1, max(0, done / Double(total)))
  }

  /// Marks units of work as done.
  ///
  /// - Parameter count: How many units finished; counts below 1 are ignored.
  public func complete(count: Int) {
    guard count > 0 else { return }
    publishingChanges(totals: false) {
      unitsCompleted.add(count, ordering: .relaxed)
    }
    finishIfDone()
  }

  /// Changes the completed and total counts together.
  ///
  /// ```swift
  /// manager.setCounts { _, total in total = pages.count + 1 }
  /// ```
  ///
  /// - Parameter counts: Given the completed count and the total (`nil` when
  ///   unknown) to change in place.
  public func setCounts(_ counts: (_ completed: inout Int, _ total: inout Int?) -> Void) {
    var completed = completedCount
    var total = totalCount
    counts(&completed, &total)
    publishingChanges(totals: true) {
      unitsTotal.store(total.map { max(0, $0) } ?? Self.indeterminate, ordering: .relaxed)
      unitsCompleted.store(max(0, completed), ordering: .relaxed)
    }
    finishIfDone()
  }

  private func finishIfDone() {
    if parent == nil, isFinished { meter.finish(fraction: fractionCompleted) }
    if isFinished { endAssignments() }
  }

  // MARK: Observation

  /// Runs a change of this manager's counts between Observation's `willSet` and `didSet`
  /// calls: its own counts, and the fraction of it and every ancestor (which sums it).
  ///
  /// - Parameters:
  ///   - totals: Whether the total may change too.
  ///   - change: The change.
  private func publishingChanges(totals: Bool, _ change: () -> Void) {
    registrar.willSet(self, keyPath: \.completedCount)
    registrar.willSet(self, keyPath: \.isFinished)
    if totals {
      registrar.willSet(self, keyPath: \.totalCount)
      registrar.willSet(self, keyPath: \.isIndeterminate)
    }
    var node: ProgressManager? = self
    while let current = node {
      current.registrar.willSet(current, keyPath: \.fractionCompleted)
      node = current.parent
    }
    change()
    node = self
    while let current = node {
      current.registrar.didSet(current, keyPath: \.fractionCompleted)
      node = current.parent
    }
    if totals {
      registrar.didSet(self, keyPath: \.isIndeterminate)
      registrar.didSet(self, keyPath: \.totalCount)
    }
    registrar.didSet(self, keyPath: \.isFinished)
    registrar.didSet(self, keyPath: \.completedCount)
  }

  // MARK: Composition

  /// Hands a share of this manager's units to a piece of work.
  ///
  /// When the work's manager goes away (or the subprogress is dropped
  /// without being started), the whole share counts as completed here.
  ///
  /// - Parameter count: How many of this manager's units the work stands for.
  /// - Returns: The subprogress to pass to the work; it can be started once.
  public func subprogress(assigningCount count: Int) -> Subprogress {
    Subprogress(parent: self, assignedCount: max(0, count))
  }

  /// The read-only view of this manager, for observers.
  public var reporter: ProgressReporter { ProgressReporter(manager: self) }

  func makeChild(assignedCount: Int, totalCount: Int?) -> ProgressManager {
    let child = ProgressManager(
      parent: self, assignedCount: assignedCount, totalCount: totalCount, meter: meter)
    children.withLock {
      $0.append(
        ChildLink(
          manager: child, identifier: ObjectIdentifier(child), assignedCount: assignedCount))
    }
    return child
  }

  /// The children still alive, for summaries.
  var liveChildren: [ProgressManager] {
    children.withLock { links in links.compactMap(\.manager) }
  }

  func childEnded(_ identifier: ObjectIdentifier, assignedCount: Int) {
    // The share is added before the child's partial work leaves the sum, so a reader
    // between the two sees at most the whole share, never less than before.
    publishingChanges(totals: false) {
      if assignedCount > 0 { unitsCompleted.add(assignedCount, ordering: .relaxed) }
      children.withLock { links in
        links.removeAll { $0.identifier == identifier }
      }
    }
    finishIfDone()
  }

  var root: ProgressManager {
    var node = self
    while let next = node.parent { node = next }
    return node
  }

  // MARK: Cancellation (Folio's; Foundation leaves it to tasks)

  /// Asks the work under this manager (and its children) to stop.
  ///
  /// Synchronous cores run outside any task, so task cancellation reaches
  /// them through this flag (see `runBlocking`).
  package func cancel() {
    cancelled.store(true, ordering: .relaxed)
  }

  /// Whether this manager or one of its ancestors was cancelled.
  package var isCancelled: Bool {
    // Recursing through the constant `parent` borrows each ancestor; a loop holding the
    // next one in a variable retained and released it, at every check of every entry.
    cancelled.load(ordering: .relaxed) || (parent?.isCancelled ?? false)
  }

  /// Throws when the work should stop.
  ///
  /// That is when this manager (or an ancestor) was cancelled, or the current
  /// task was. Synchronous cores call it between chunks.
  ///
  /// - Throws: `CancellationError`.
  package func checkCancellation() throws {
    if isCancelled || Task.isCancelled { throw CancellationError() }
  }

  // MARK: Identity and description

  /// Managers are equal when they are the same object.
  public static func == (lhs: ProgressManager, rhs: ProgressManager) -> Bool { lhs === rhs }

  /// Hashes the manager's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  /// The counts in a line: `ProgressManager(3/10, 0.35 done)`.
  public var description: String {
    let total = totalCount.map(String.init) ?? "?"
    return "ProgressManager(\(completedCount)/\(total), \(fractionCompleted) done)"
  }

  /// The same as ``description``.
  public var debugDescription: String { description }
}
