/// A share of a parent's progress, handed to a piece of work that reports on it.
///
/// A subprogress is used once: the worker consumes it with
/// ``start(totalCount:)`` to get its own ``ProgressReporter``. When the worker's
/// reporter goes away, or the subprogress is dropped without being started,
/// the whole share counts as completed in the parent.
///
/// ```swift
/// func write(to url: URL, progress: consuming Subprogress) throws {
///   let reporter = progress.start(totalCount: 2)
///   …
///   reporter.complete(count: 1)
/// }
/// ```
public struct Subprogress: ~Copyable, Sendable {
  private var parent: ProgressReporter?
  private let assignedCount: Int

  init(parent: ProgressReporter, assignedCount: Int) {
    self.parent = parent
    self.assignedCount = assignedCount
  }

  /// A subprogress nobody watches, for callers that do not need progress.
  ///
  /// - Returns: A subprogress of a fresh, unobserved operation.
  public static func untracked() -> Subprogress {
    ProgressReporter(totalCount: 1).subprogress(assigningCount: 1)
  }

  /// Starts the work this subprogress stands for.
  ///
  /// - Parameter totalCount: The units the work consists of; the child's units
  ///   map onto the share its parent assigned.
  /// - Returns: The reporter the work completes units on.
  public consuming func start(totalCount: Int) -> ProgressReporter {
    let parent = self.parent ?? ProgressReporter(totalCount: 1)
    self.parent = nil
    let child = ProgressReporter(
      parent: parent, assignedCount: assignedCount, totalCount: totalCount)
    parent.adopt(child, assignedCount: assignedCount)
    return child
  }

  deinit {
    parent?.complete(count: assignedCount)
  }
}
