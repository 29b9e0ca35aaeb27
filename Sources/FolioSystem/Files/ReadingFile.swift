import Glibc

/// A file open for reading in chunks, closed when the value goes: the part of
/// Foundation's `FileHandle` that streaming readers use, which FoundationEssentials lacks.
package final class ReadingFile {
  /// The open descriptor.
  package let descriptor: Int32

  /// Opens a file (a final symbolic link is followed).
  ///
  /// - Parameter path: The file's path.
  /// - Throws: ``SystemError`` from `open`.
  package init(atPath path: String) throws(SystemError) {
    let descriptor = SystemCall.retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
    guard descriptor >= 0 else { throw .current }
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// Reads the next bytes, at most `count` of them.
  ///
  /// - Parameter count: The most bytes to return.
  /// - Returns: The bytes read; empty at the end of the file.
  /// - Throws: ``SystemError`` from `read`.
  package func read(upToCount count: Int) throws(SystemError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    // Fill the chunk (a pipe or a slow file may give less per call) or reach the end.
    while filled < count {
      let got = bytes.withUnsafeMutableBytes { raw in
        SystemCall.retryingInterrupts {
          Glibc.read(descriptor, raw.baseAddress! + filled, count - filled)
        }
      }
      if got < 0 { throw .current }
      if got == 0 { break }
      filled += got
    }
    bytes.removeSubrange(filled...)
    return bytes
  }
}
