import Glibc

/// A mutex with one condition variable (`pthread_mutex_t` and `pthread_cond_t`),
/// for threads that wait until another thread changes shared state.
///
/// `Synchronization.Mutex` has no condition to wait on; Folio's worker threads
/// are plain threads, not tasks, because the pipeline's cores are synchronous.
final class ConditionLock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Runs `body` holding the mutex.
  ///
  /// - Parameter body: The critical section; it may call ``wait()``.
  /// - Returns: What `body` returns.
  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }

  /// Releases the mutex until another thread calls ``broadcast()``, then takes it again.
  ///
  /// Call it only inside ``withLock(_:)``, in a loop that tests the awaited state.
  func wait() {
    pthread_cond_wait(condition, mutex)
  }

  /// Wakes every thread waiting in ``wait()``.
  func broadcast() {
    pthread_cond_broadcast(condition)
  }
}
