import Glibc

/// Lists a folder's names straight from `readdir`, hiding nothing but `.` and `..`.
///
/// Foundation's `contentsOfDirectory` leaves out some names (an entry called
/// exactly `._`), so a tree read through it can silently miss a file. Every
/// module lists folders through this one type instead.
package enum FolderListing {
  /// The names in a folder, unsorted, as the file system holds them.
  ///
  /// - Parameter path: The folder's path.
  /// - Returns: Every name but `.` and `..`.
  /// - Throws: ``SystemError`` with the `errno` of `opendir` or `readdir`;
  ///   `EILSEQ` for a name that is not valid UTF-8 (rather than a lossy
  ///   spelling that would name no file).
  package static func names(atPath path: String) throws(SystemError) -> [String] {
    var names: [String] = []
    var invalid = false
    try forEachName(atPath: path) { bytes in
      guard let name = String(validating: bytes, as: UTF8.self) else {
        invalid = true
        return false
      }
      names.append(name)
      return true
    }
    if invalid { throw SystemError(errno: EILSEQ) }
    return names
  }

  /// Calls `body` with each name in a folder as raw bytes (any name, valid
  /// UTF-8 or not), but `.` and `..`, until it returns `false`.
  ///
  /// - Parameters:
  ///   - path: The folder's path, as bytes without a terminating NUL.
  ///   - body: Given each name's bytes; returns whether to go on.
  /// - Throws: ``SystemError`` with the `errno` of `opendir` or `readdir`.
  package static func forEachName(
    atPath path: some Collection<UInt8>, _ body: ([UInt8]) throws(SystemError) -> Bool
  ) throws(SystemError) {
    let cPath = path.map { CChar(bitPattern: $0) } + [0]
    guard let directory = opendir(cPath) else { throw .current }
    defer { closedir(directory) }
    try forEachName(in: directory, body)
  }

  /// Calls `body` with each name in an open folder where `readdir` holds it, without
  /// copying it, from the first, until it returns `false`: for walks relative to
  /// descriptors (`openat`), which never follow a name swapped for a link meanwhile, over
  /// tens of thousands of names, which copy each where they keep it.
  ///
  /// - Parameters:
  ///   - descriptor: The open folder; it stays open and is not moved.
  ///   - body: Given each name's bytes (without the NUL that follows them), valid only
  ///     during the call; returns whether to go on.
  /// - Throws: ``SystemError`` with the `errno` of `dup`, `fdopendir` or `readdir`.
  package static func forEachNameInPlace(
    inFolder descriptor: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws(SystemError) -> Bool
  ) throws(SystemError) {
    let duplicate = dup(descriptor)
    guard duplicate >= 0 else { throw .current }
    guard let directory = fdopendir(duplicate) else {
      let failure = SystemError.current
      close(duplicate)
      throw failure
    }
    defer { closedir(directory) }
    // The duplicate shares the descriptor's offset: start from the top on every walk.
    rewinddir(directory)
    try forEachNameInPlace(in: directory, body)
  }

  private static func forEachName(
    in directory: OpaquePointer, _ body: ([UInt8]) throws(SystemError) -> Bool
  ) throws(SystemError) {
    try forEachNameInPlace(in: directory) { (name) throws(SystemError) in try body(Array(name)) }
  }

  private static func forEachNameInPlace(
    in directory: OpaquePointer, _ body: (UnsafeBufferPointer<UInt8>) throws(SystemError) -> Bool
  ) throws(SystemError) {
    while true {
      errno = 0
      guard let entry = readdir(directory) else {
        if errno != 0 { throw .current }
        return
      }
      // The name is read where it lies, up to its NUL. Copying `d_name` as a value would
      // read its full 256 bytes, but a record is only as long as its name (`d_reclen`),
      // so the last record of readdir's buffer can end just before an unmapped page: the
      // copy crashed a test run that way.
      let name = (UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!)
        .assumingMemoryBound(to: UInt8.self)
      let length = strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
      // `.` and `..`
      if name[0] == 0x2E && (length == 1 || (length == 2 && name[1] == 0x2E)) { continue }
      guard try body(UnsafeBufferPointer(start: name, count: length)) else { return }
    }
  }

  /// Calls `body` with each name in a folder as raw bytes.
  ///
  /// - Parameters:
  ///   - path: The folder's path.
  ///   - body: Given each name's bytes; returns whether to go on.
  /// - Throws: ``SystemError`` with the `errno` of `opendir` or `readdir`.
  package static func forEachName(
    atPath path: String, _ body: ([UInt8]) throws(SystemError) -> Bool
  ) throws(SystemError) {
    try forEachName(atPath: Array(path.utf8), body)
  }
}
