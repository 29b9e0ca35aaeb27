import Foundation
import Synchronization

/// Cancels a task from a thread of its own once a condition holds.
///
/// Tests that cancel work mid-way watch its progress here rather than from another task:
/// with the whole suite running, the cooperative pool can be busy long enough for the work
/// to finish before a watching task runs again, and the test would then see no cancellation.
public final class CancellationWatch: Sendable {
  private let stopped = Atomic<Bool>(false)

  private init() {}

  /// Starts watching.
  ///
  /// - Parameters:
  ///   - task: The task to cancel.
  ///   - condition: Polled every 0.1 ms until it holds (then the task is cancelled) or the
  ///     watch is stopped.
  /// - Returns: The watch; stop it once the task is over.
  public static func cancel<Success: Sendable>(
    _ task: Task<Success, any Error>, when condition: @escaping @Sendable () -> Bool
  ) -> CancellationWatch {
    let watch = CancellationWatch()
    let thread = Thread {
      while !condition() {
        if watch.stopped.load(ordering: .acquiring) { return }
        usleep(100)
      }
      task.cancel()
    }
    thread.start()
    return watch
  }

  /// Ends the watch (the thread returns at its next look).
  public func stop() { stopped.store(true, ordering: .releasing) }
}
