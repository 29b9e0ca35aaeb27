import FolioSystem
import Glibc

/// Creates folders each inside the one before, below an existing folder, through
/// descriptors (so the chain may run past `PATH_MAX`), holding one descriptor at a time.
///
/// - Parameters:
///   - path: The existing folder the chain starts in.
///   - names: The folders' names, outermost first.
/// - Returns: An open descriptor of the innermost folder; the caller closes it.
/// - Throws: ``SystemError`` with the `errno` of the `open`, `mkdirat` or `openat` that failed.
public func openFolderChain(below path: String, names: some Sequence<String>) throws -> Int32 {
  var descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
  guard descriptor >= 0 else { throw SystemError(errno: errno) }
  for name in names {
    guard mkdirat(descriptor, name, 0o755) == 0 else {
      let failure = SystemError(errno: errno)
      close(descriptor)
      throw failure
    }
    let next = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    let failure = SystemError(errno: errno)
    close(descriptor)
    guard next >= 0 else { throw failure }
    descriptor = next
  }
  return descriptor
}
