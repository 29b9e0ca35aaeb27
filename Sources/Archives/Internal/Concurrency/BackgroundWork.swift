/// One piece of work run on a thread of its own while the caller does something else, its
/// result taken later; without a thread to spare, it runs at once on the caller's thread.
///
/// ```swift
/// let index = BackgroundWork(inBackground: jobs > 1) { try ZipReuseIndex(path: path) }
/// defer { index.wait() }
/// walk()
/// let reuse = try index.value()
/// ```
///
/// The caller must reach ``wait()`` (or ``value()``) on every path, so the thread never
/// outlives the files its work refers to.
final class BackgroundWork<Value>: @unchecked Sendable {
  private let pool: WorkerPool<Void>
  /// Set by the work, read only after the pool is closed (its thread joined).
  private var outcome: Result<Value, any Error>?

  /// Starts the work.
  ///
  /// - Parameters:
  ///   - inBackground: Whether to run it on a thread of its own (else at once, here).
  ///   - work: The work; its value and its error are handed over by ``value()``.
  init(inBackground: Bool, _ work: @escaping @Sendable () throws -> Value) {
    pool = WorkerPool(threads: inBackground ? 1 : 0) {}
    pool.submit { [self] _ in outcome = Result { try work() } }
  }

  /// Waits for the work to end.
  func wait() { pool.close() }

  /// Waits for the work, then gives its value.
  ///
  /// - Returns: What the work returned.
  /// - Throws: What the work threw.
  func value() throws -> Value {
    wait()
    guard let outcome else { preconditionFailure("the work ended without an outcome") }
    return try outcome.get()
  }

  /// Waits for the work, then gives its value without keeping it, so that the caller's is
  /// the only reference (the value is taken once).
  ///
  /// - Returns: What the work returned.
  /// - Throws: What the work threw.
  func take() throws -> Value {
    defer { outcome = nil }
    return try value()
  }
}
