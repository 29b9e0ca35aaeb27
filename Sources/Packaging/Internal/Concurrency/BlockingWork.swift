import Dispatch

/// Runs a synchronous, blocking core (file and archive I/O) off the
/// cooperative thread pool, turning task cancellation into a cancelled
/// reporter that the core notices between chunks.
///
/// - Parameters:
///   - reporter: The reporter the core checks with `checkCancellation()`.
///   - body: The synchronous work.
/// - Returns: What the work returns.
/// - Throws: What the work throws (`CancellationError` when cancelled).
func runBlocking<T: Sendable>(
  cancelling reporter: ProgressReporter, _ body: @escaping @Sendable () throws -> T
) async throws -> T {
  try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global(qos: .userInitiated).async {
        continuation.resume(with: Result { try body() })
      }
    }
  } onCancel: {
    reporter.cancel()
  }
}
