import FolioSystem

/// Runs a synchronous core off the cooperative pool (FolioSystem's
/// `runBlocking`), turning the calling task's cancellation into a cancelled
/// manager that the core notices between chunks.
///
/// - Parameters:
///   - manager: The manager the core checks with `checkCancellation()`, if any.
///   - body: The synchronous work.
/// - Returns: What the work returns.
/// - Throws: What the work throws (`CancellationError` when cancelled).
package func runBlocking<T: Sendable>(
  cancelling manager: ProgressManager?, _ body: @escaping @Sendable () throws -> T
) async throws -> T {
  try await runBlocking(onCancel: { manager?.cancel() }, body)
}
