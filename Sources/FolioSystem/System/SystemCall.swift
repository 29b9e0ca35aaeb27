import FoundationEssentials
import Glibc

/// The one place Folio retries interrupted system calls.
///
/// A signal arriving during a blocking call makes it fail with `EINTR` (a
/// debugger attaching, a `SIGCHLD`, a timer): nothing went wrong, so the call
/// is made again rather than reported. `close` is never retried this way: on
/// Linux the descriptor is gone even when it reports `EINTR`.
package enum SystemCall {
  /// Makes a call until it succeeds or fails with something other than `EINTR`.
  ///
  /// - Parameter call: The system call, returning a negative value and setting
  ///   `errno` on failure (`fsync`, `read`, `write`, `open` …).
  /// - Returns: The last result; `errno` still describes a failure.
  @inline(__always)
  package static func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) -> Result {
    while true {
      let result = call()
      if result >= 0 || errno != EINTR { return result }
    }
  }

  /// Writes every byte, through short writes and interruptions.
  ///
  /// - Parameters:
  ///   - descriptor: An open, writable descriptor.
  ///   - bytes: What to write.
  /// - Returns: 0, or the `errno` of the write that failed.
  package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    var done = 0
    while done < bytes.count {
      let written = retryingInterrupts {
        write(descriptor, bytes.baseAddress! + done, bytes.count - done)
      }
      if written < 0 { return errno }
      done += written
    }
    return 0
  }

  /// Writes every byte at an offset (`pwrite` until done, retrying interruptions), without
  /// moving the file position.
  ///
  /// - Parameters:
  ///   - descriptor: A file open for writing.
  ///   - bytes: What to write.
  ///   - offset: Where the first byte goes.
  /// - Returns: 0, or the `errno` of the write that failed.
  package static func writeAll(
    _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64
  )
    -> Int32
  {
    var done = 0
    while done < bytes.count {
      let written = retryingInterrupts {
        pwrite(
          descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
      }
      if written < 0 { return errno }
      done += written
    }
    return 0
  }
}
