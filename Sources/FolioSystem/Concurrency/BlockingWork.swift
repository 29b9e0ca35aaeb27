import Dispatch

/// Runs a synchronous, blocking core (file and archive I/O) off the
/// cooperative thread pool and resumes the caller with its result.
///
/// The work runs outside any task, so it cannot see the caller's
/// cancellation: `onCancel` is called when the calling task is cancelled, to
/// set whatever flag the work checks between chunks (a progress manager's).
/// A task cancelled before the call throws at once.
///
/// - Parameters:
///   - onCancel: Called once if the calling task is cancelled while the work runs.
///   - body: The synchronous work.
/// - Returns: What the work returns.
/// - Throws: What the work throws, or `CancellationError` when already cancelled.
package func runBlocking<T: Sendable>(
  onCancel: @escaping @Sendable () -> Void = {}, _ body: @escaping @Sendable () throws -> T
) async throws -> T {
  try Task.checkCancellation()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global(qos: .userInitiated).async {
        continuation.resume(with: Result { try body() })
      }
    }
  } onCancel: {
    onCancel()
  }
}
