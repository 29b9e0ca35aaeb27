/// A share of a parent manager's units, handed to a piece of work that reports on it.
///
/// As in Foundation's proposal SF-0023: a subprogress is used once; the work
/// consumes it with ``start(totalCount:)`` to get its own ``ProgressManager``.
/// When that manager goes away, or the subprogress is dropped without being
/// started (an early throw), the whole share counts as completed in the parent.
///
/// ```swift
/// func write(to url: URL, progress: consuming Subprogress) throws {
///   let manager = progress.start(totalCount: 2)
///   …
///   manager.complete(count: 1)
/// }
/// ```
public struct Subprogress: ~Copyable, Sendable {
  private var parent: ProgressManager?
  private let assignedCount: Int

  init(parent: ProgressManager, assignedCount: Int) {
    self.parent = parent
    self.assignedCount = assignedCount
  }

  /// A subprogress nobody watches, for callers that do not need progress:
  /// the default of Folio's long operations.
  ///
  /// - Returns: A subprogress of a fresh, unobserved manager.
  public static func untracked() -> Subprogress {
    ProgressManager(totalCount: 1).subprogress(assigningCount: 1)
  }

  /// Starts the work this subprogress stands for.
  ///
  /// - Parameter totalCount: The units the work consists of (`nil` while
  ///   unknown); they map onto the share the parent assigned.
  /// - Returns: The manager the work completes units on.
  public consuming func start(totalCount: Int?) -> ProgressManager {
    let parent = self.parent ?? ProgressManager(totalCount: 1)
    self.parent = nil
    return parent.makeChild(assignedCount: assignedCount, totalCount: totalCount)
  }

  deinit {
    parent?.complete(count: assignedCount)
  }
}
