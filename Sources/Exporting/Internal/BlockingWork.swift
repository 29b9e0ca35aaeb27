import Foundation
import Packaging

/// Runs blocking file work on a dispatch queue, off the cooperative pool, and
/// resumes the caller with its result.
///
/// Cancelling the calling task cancels `reporter`, which the work checks
/// between chunks (the work itself runs outside any task).
func runBlocking<T: Sendable>(
  cancelling reporter: ProgressReporter? = nil, _ work: @escaping @Sendable () throws -> T
) async throws -> T {
  try Task.checkCancellation()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result { try work() })
      }
    }
  } onCancel: {
    reporter?.cancel()
  }
}
