import Glibc

/// Lets go of a value on a thread of its own that nobody waits for, so that what its
/// deinitialisation costs (a descriptor whose closing has the kernel free a replaced file's
/// blocks) runs while the caller goes on.
///
/// The caller hands over its last reference: the value is never used on that thread, only
/// let go of, so nothing is shared. A process that exits meanwhile waits for a system call
/// under way, not for the rest: the system takes back its memory whole.
enum DetachedRelease {
  /// Lets go of `value` on a detached thread (here, when the system refuses a thread).
  ///
  /// - Parameter value: What to let go of.
  static func release(_ value: consuming AnyObject?) {
    let holder = Holder(value: value)
    let context = Unmanaged.passRetained(holder).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
      &thread, nil,
      { raw in
        let holder = Unmanaged<Holder>.fromOpaque(raw!).takeRetainedValue()
        holder.value = nil
        return nil
      }, context)
    if status == 0 {
      pthread_detach(thread)
    } else {
      Unmanaged<Holder>.fromOpaque(context).release()
    }
  }

  /// The value, carried through `pthread_create`'s context pointer.
  private final class Holder {
    var value: AnyObject?
    init(value: AnyObject?) { self.value = value }
  }
}
