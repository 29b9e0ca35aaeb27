import Dispatch
import Glibc
import Synchronization

/// A value made on a thread of its own while its owner goes on, and waited for where it
/// is first read.
///
/// For work that a command needs soon but not at once (the type registry, which a pack
/// first asks when it compresses a file, while the package is already being listed). A
/// read after the value is made costs one atomic load; a read before waits for it.
package final class PendingValue<Value: Sendable>: @unchecked Sendable {
  /// Set, with a releasing store, once `made` holds the value.
  private let isMade = Atomic<Bool>(false)
  /// Written once, by the making thread (or the initialiser), before `isMade`.
  private var made: Value?
  /// Signalled once the value is made; each waiter passes the signal on.
  private let madeSignal = DispatchSemaphore(value: 0)

  /// A value already made.
  ///
  /// - Parameter value: The value.
  package init(_ value: Value) {
    made = value
    isMade.store(true, ordering: .releasing)
  }

  /// Starts making the value on a thread of its own (here, at once, when the system refuses
  /// a thread).
  ///
  /// - Parameter make: What makes the value; it runs once.
  package init(makingInBackground make: @escaping @Sendable () -> Value) {
    Self.startThread(
      PendingValueJob { [self] in
        made = make()
        isMade.store(true, ordering: .releasing)
        madeSignal.signal()
      })
  }

  /// Runs a job on a detached thread of its own (here, at once, when the system refuses a
  /// thread).
  private static func startThread(_ job: PendingValueJob) {
    let context = Unmanaged.passRetained(job).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
      &thread, nil,
      { raw in
        Unmanaged<PendingValueJob>.fromOpaque(raw!).takeRetainedValue().run()
        return nil
      }, context)
    guard status == 0 else {
      Unmanaged<PendingValueJob>.fromOpaque(context).release()
      job.run()
      return
    }
    pthread_detach(thread)
  }

  /// The value, waiting for it while it is being made.
  package var value: Value {
    if !isMade.load(ordering: .acquiring) {
      madeSignal.wait()
      madeSignal.signal()
    }
    return made.unsafelyUnwrapped
  }
}

/// The work a new thread runs, carried through `pthread_create`'s context pointer (outside
/// the generic class: a C function cannot refer to a generic context).
private final class PendingValueJob {
  let run: () -> Void
  init(_ run: @escaping () -> Void) { self.run = run }
}
