import Glibc

/// Reads a whole (small) file into memory with `open`/`read`, so a failure
/// carries its `errno` (Foundation's `Data(contentsOf:)` reports some, such
/// as `EIO`, only as "error 256") and a size limit holds even for a file that
/// grows while it is read.
package enum FileContents {
  /// Why a file could not be read.
  package enum Failure: Error, Sendable, Equatable {
    /// A system call failed (`EISDIR` for a folder).
    case system(SystemError)
    /// The file holds more bytes than the limit; `size` is what was seen.
    case tooLarge(size: Int)
  }

  /// The bytes of a file.
  ///
  /// - Parameters:
  ///   - path: The file's path (a final symbolic link is followed).
  ///   - limit: The most bytes to accept.
  /// - Returns: The file's bytes.
  /// - Throws: ``Failure``.
  package static func read(atPath path: String, limit: Int = .max) throws(Failure) -> [UInt8] {
    let descriptor = SystemCall.retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
    guard descriptor >= 0 else { throw .system(.current) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw .system(.current) }
    if info.st_mode & S_IFMT == S_IFDIR { throw .system(SystemError(errno: EISDIR)) }
    let size = Int(info.st_size)
    if size > limit { throw .tooLarge(size: size) }
    var bytes = [UInt8](repeating: 0, count: max(size, 0) + 1)
    var filled = 0
    while true {
      if filled == bytes.count {
        // The file grew (or reports no size): read on, within the limit.
        if filled > limit { throw .tooLarge(size: filled) }
        bytes.append(contentsOf: repeatElement(0, count: max(4096, filled)))
      }
      let count = bytes.withUnsafeMutableBytes { raw in
        SystemCall.retryingInterrupts {
          Glibc.read(descriptor, raw.baseAddress! + filled, raw.count - filled)
        }
      }
      if count < 0 { throw .system(.current) }
      if count == 0 { break }
      filled += count
    }
    if filled > limit { throw .tooLarge(size: filled) }
    bytes.removeSubrange(filled...)
    return bytes
  }
}
