public import Archives
public import FolioSystem
public import FoundationEssentials
public import ProgressReporting

/// Runs many planned exports at once, a fixed number at a time, each failure kept to its input.
///
/// Every export reports on one equal share of the given progress, so one
/// display shows the whole batch; one export failing does not stop the others.
public struct BatchExport: Sendable {
  /// One export to run.
  public struct Task: Sendable {
    /// The plan.
    public var plan: ExportPlan
    /// Where its output goes.
    public var output: URL
    /// What to do when the output exists: refuse it or replace it (an export is written
    /// whole, so ``ReplacePolicy/update`` is refused).
    public var replacePolicy: ReplacePolicy
    /// Whether an existing output may be replaced.
    @available(*, deprecated, renamed: "replacePolicy")
    public var overwrite: Bool {
      get { replacePolicy.replacesExisting }
      set { replacePolicy = newValue ? .replace : .refuse }
    }

    /// Creates a task.
    ///
    /// - Parameters:
    ///   - plan: The plan.
    ///   - output: Where its output goes.
    ///   - replacePolicy: What to do when the output exists (by default, refuse it).
    public init(plan: ExportPlan, output: URL, replacePolicy: ReplacePolicy = .refuse) {
      self.plan = plan
      self.output = output
      self.replacePolicy = replacePolicy
    }

    /// Creates a task that replaces an existing output only when `overwrite` is `true`.
    ///
    /// - Parameters:
    ///   - plan: The plan.
    ///   - output: Where its output goes.
    ///   - overwrite: Whether an existing output may be replaced.
    @available(*, deprecated, message: "pass a ReplacePolicy: replacePolicy: .refuse or .replace")
    public init(plan: ExportPlan, output: URL, overwrite: Bool) {
      self.init(plan: plan, output: output, replacePolicy: overwrite ? .replace : .refuse)
    }
  }

  /// How many exports run at the same time.
  public var concurrency: Int
  /// How each export waits for a writer's lock on a package input, and whom it tells.
  public var lockOptions: LockOptions

  /// Creates a batch runner.
  ///
  /// - Parameters:
  ///   - concurrency: How many exports run at once (at least 1); `nil`, the processors this
  ///     process may use (its CPU affinity), as packing and expanding choose their jobs.
  ///   - lockOptions: How each export waits for a writer's lock on a package input.
  public init(concurrency: Int? = nil, lockOptions: LockOptions = .default) {
    self.concurrency = ProcessorCount.jobs(concurrency)
    self.lockOptions = lockOptions
  }

  /// Runs the tasks.
  ///
  /// - Parameters:
  ///   - tasks: The exports, in the order results are returned.
  ///   - progress: The batch's share of the caller's progress; each task gets an equal part.
  /// - Returns: One result per task, in the tasks' order.
  public func run(
    _ tasks: [Task], progress: consuming Subprogress = .untracked()
  ) async -> [Result<ExportResult, any Error>] {
    let manager = progress.start(totalCount: max(1, tasks.count))
    defer { manager.end() }
    return await run(tasks, progressForTask: { _ in manager.subprogress(assigningCount: 1) })
  }

  /// Runs the tasks, each reporting to the progress the caller hands it (a
  /// display that tells the inputs apart gives each its own).
  ///
  /// - Parameters:
  ///   - tasks: The exports, in the order results are returned.
  ///   - progressForTask: The progress for the task at an index; called once per task.
  /// - Returns: One result per task, in the tasks' order.
  public func run(
    _ tasks: [Task], progressForTask: @escaping @Sendable (Int) -> Subprogress
  ) async -> [Result<ExportResult, any Error>] {
    let lockOptions = self.lockOptions
    var results = [Result<ExportResult, any Error>?](repeating: nil, count: tasks.count)
    await withTaskGroup(of: (Int, Result<ExportResult, any Error>).self) { group in
      var next = 0
      func startNext() {
        guard next < tasks.count else { return }
        let index = next
        let task = tasks[index]
        next += 1
        group.addTask {
          do {
            return (
              index,
              .success(
                try await task.plan.run(
                  to: task.output, replacePolicy: task.replacePolicy, lockOptions: lockOptions,
                  progress: progressForTask(index)))
            )
          } catch {
            return (index, .failure(error))
          }
        }
      }
      for _ in 0..<concurrency { startNext() }
      while let (index, result) = await group.next() {
        results[index] = result
        startNext()
      }
    }
    return results.map { $0 ?? .failure(CancellationError()) }
  }
}
