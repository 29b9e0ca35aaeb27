import Foundation

/// Writes a file by way of a temporary file beside it: write, `fsync`, `rename`, `fsync` the folder.
enum AtomicFileWriter {
  /// Replaces `url` with `data`, atomically.
  ///
  /// - Throws: ``PropertyListError`` with `write-failed`, naming the path and the errno.
  static func write(_ data: Data, to url: URL) throws {
    let target = url.path
    let directory = url.deletingLastPathComponent().path
    let temporary =
      directory + "/.\(url.lastPathComponent).folio-\(UUID().uuidString.prefix(8)).tmp"
    func failure(_ what: String, _ path: String) -> PropertyListError {
      let code = errno
      return PropertyListError(
        .writeFailed, "cannot \(what) \(path): \(String(cString: strerror(code)))",
        location: SourceLocation(file: target),
        cause: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
    }
    var mode: mode_t = 0o644
    var existing = stat()
    if stat(target, &existing) == 0 { mode = existing.st_mode & 0o7777 }
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else { throw failure("create", temporary) }
    var renamed = false
    defer { if !renamed { unlink(temporary) } }
    do {
      defer { close(descriptor) }
      try data.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
          let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            throw failure("write", temporary)
          }
          offset += written
        }
      }
      guard fsync(descriptor) == 0 else { throw failure("flush", temporary) }
    }
    guard rename(temporary, target) == 0 else { throw failure("rename over", target) }
    renamed = true
    let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folder >= 0 {
      defer { close(folder) }
      _ = fsync(folder)
    }
  }
}
