import Foundation

/// Lists a folder's names straight from `readdir`, hiding nothing but `.` and `..`.
///
/// Foundation's `contentsOfDirectory` leaves out some names (an entry called
/// exactly `._`), so a tree read through it can silently miss a file. Every
/// module lists folders through this one function instead.
package enum FolderListing {
  /// The names in a folder, unsorted, as the file system holds them.
  ///
  /// - Parameter path: The folder's path.
  /// - Returns: Every name but `.` and `..`.
  /// - Throws: The `errno` of `opendir` or `readdir`, as a `POSIXError`; `EILSEQ`
  ///   for a name that is not valid UTF-8 (rather than a lossy spelling that
  ///   would name no file).
  package static func names(atPath path: String) throws -> [String] {
    guard let directory = opendir(path) else {
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    defer { closedir(directory) }
    var names: [String] = []
    while true {
      errno = 0
      guard let entry = readdir(directory) else {
        if errno != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return names
      }
      let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        Array(raw.prefix { $0 != 0 })
      }
      if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
      guard let name = String(validating: bytes, as: UTF8.self) else {
        throw POSIXError(.EILSEQ)
      }
      names.append(name)
    }
  }
}
