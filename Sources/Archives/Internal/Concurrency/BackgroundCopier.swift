/// Copies made one after another on a thread of their own, in the order given, while the
/// thread that gave them goes on; the first failure is kept for that thread, and the copies
/// after it are not made.
final class BackgroundCopier: @unchecked Sendable {
  private let pool = WorkerPool<Void>(threads: 1) {}
  private let lock = ConditionLock()
  /// The first copy's failure (under the lock).
  private var failure: (any Error)?
  /// Whether the copies not started are skipped (under the lock).
  private var stopped = false

  /// Queues a copy behind the others.
  ///
  /// - Parameter copy: The copy; what it throws is kept for ``throwFailure()``.
  func submit(_ copy: @escaping @Sendable () throws -> Void) {
    pool.submit { [self] _ in
      guard lock.withLock({ failure == nil && !stopped }) else { return }
      do {
        try copy()
      } catch {
        lock.withLock { failure = error }
      }
    }
  }

  /// Throws the first copy's failure, if one failed already.
  func throwFailure() throws {
    if let failure = lock.withLock({ failure }) { throw failure }
  }

  /// Waits for every copy, then throws the first failure.
  func finish() throws {
    pool.close()
    try throwFailure()
  }

  /// Skips the copies not started and waits for the one under way.
  func stop() {
    lock.withLock { stopped = true }
    pool.close()
  }
}
