extension ProgressManager {
  /// Throws when work reporting to `progress` should stop: `progress` (or an ancestor) was
  /// cancelled, or the current task was, including when the work reports to no manager.
  ///
  /// The writers' streaming cores call it between chunks.
  ///
  /// - Parameter progress: The work's manager, if it has one.
  /// - Throws: `CancellationError`.
  package static func checkCancellation(of progress: ProgressManager?) throws {
    if let progress {
      try progress.checkCancellation()
    } else if Task.isCancelled {
      throw CancellationError()
    }
  }
}
