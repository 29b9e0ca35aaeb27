package import FoundationEssentials
import Glibc

/// A file open for reading in chunks, closed when the value goes (unless borrowed): the
/// part of Foundation's `FileHandle` that streaming readers use, which FoundationEssentials
/// lacks.
package final class ReadingFile {
  /// The open descriptor.
  package let descriptor: Int32
  /// Whether the descriptor is closed with this object (not when borrowed).
  private let owned: Bool

  /// Opens a file (a final symbolic link is followed).
  ///
  /// - Parameter path: The file's path.
  /// - Throws: ``SystemError`` from `open`.
  package init(atPath path: String) throws(SystemError) {
    let descriptor = SystemCall.retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
    guard descriptor >= 0 else { throw .current }
    self.descriptor = descriptor
    owned = true
  }

  /// Reads from a descriptor someone else opened and closes, such as standard input.
  ///
  /// - Parameter descriptor: An open, readable descriptor; it stays open.
  package init(borrowing descriptor: Int32) {
    self.descriptor = descriptor
    owned = false
  }

  deinit { if owned { close(descriptor) } }

  /// Reads the next bytes, at most `count` of them.
  ///
  /// - Parameter count: The most bytes to return.
  /// - Returns: The bytes read; empty at the end of the file.
  /// - Throws: ``SystemError`` from `read`.
  package func read(upToCount count: Int) throws(SystemError) -> Data {
    // Data, which every reader hands on, so no caller copies the chunk into one.
    var bytes = Data(count: count)
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
    bytes.count = filled
    return bytes
  }
}
