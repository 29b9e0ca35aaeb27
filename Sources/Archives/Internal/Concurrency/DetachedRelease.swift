import Glibc

/// Lets go of values on a thread of its own that nobody waits for, so that what their
/// deinitialisation costs (a descriptor whose closing has the kernel free a replaced file's
/// blocks, thousands of small allocations) runs while the caller goes on.
///
/// The caller hands over its last references: the values are never used on that thread,
/// only let go of, one after the other, so nothing is shared (any value will do, `Sendable`
/// or not). A process that exits meanwhile waits for a system call under way, not for the
/// rest: the system takes back its memory whole.
enum DetachedRelease {
  /// Lets go of `first`, then of `rest`, on a detached thread (here, when the system
  /// refuses a thread).
  ///
  /// - Parameters:
  ///   - first: What goes first: the slowest to deinitialise.
  ///   - rest: What goes after it.
  static func release(_ first: consuming AnyObject?, then rest: consuming Any? = nil) {
    let holder = Holder(first: first, rest: rest)
    let context = Unmanaged.passRetained(holder).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
      &thread, nil,
      { raw in
        let holder = Unmanaged<Holder>.fromOpaque(raw!).takeRetainedValue()
        holder.first = nil
        holder.rest = nil
        return nil
      }, context)
    if status == 0 {
      pthread_detach(thread)
    } else {
      Unmanaged<Holder>.fromOpaque(context).release()
    }
  }

  /// The values, carried through `pthread_create`'s context pointer.
  private final class Holder {
    var first: AnyObject?
    var rest: Any?
    init(first: AnyObject?, rest: Any?) {
      self.first = first
      self.rest = rest
    }
  }
}
