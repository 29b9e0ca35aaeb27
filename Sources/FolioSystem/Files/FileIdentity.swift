import Glibc

/// What tells one version of a file from another without reading it: the device and inode
/// it lives at, its size, and when its contents and its inode last changed (nanoseconds).
///
/// A cache derived from a file keeps its identity and is trusted only while the file still
/// has it: rewriting a file in place changes its modification and change times, replacing it
/// changes its inode, and setting its modification time back still moves its change time.
package struct FileIdentity: Sendable, Hashable {
  /// The device holding the file.
  package var device: UInt64
  /// The file's inode on that device.
  package var inode: UInt64
  /// The file's size in bytes.
  package var size: Int64
  /// The last modification of its contents, in nanoseconds since 1970.
  package var modified: Int64
  /// The last change of its inode (contents, mode, owner, links), in nanoseconds since 1970.
  package var changed: Int64

  /// Creates an identity from its parts (as read back from a cache).
  package init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
    self.device = device
    self.inode = inode
    self.size = size
    self.modified = modified
    self.changed = changed
  }

  /// The identity of the file at a path, following a final symbolic link (as reading it does).
  ///
  /// - Parameter path: The file.
  /// - Throws: ``SystemError`` when the file cannot be examined.
  package init(atPath path: String) throws(SystemError) {
    var info = stat()
    guard stat(path, &info) == 0 else { throw .current }
    self.init(
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
      modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
      changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
  }
}
