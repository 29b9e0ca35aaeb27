import Archives
import FoundationEssentials
import Glibc

/// Which file a path named at one moment: device, inode, size and modification time.
///
/// Two identities are equal when the path still names the same, unmodified
/// file. A file replaced by a rename gets a new inode; a file written in place
/// keeps its inode but changes size or modification time.
struct FileIdentity: Hashable, Sendable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  var modificationSeconds: Int64
  var modificationNanoseconds: Int64

  init(_ info: stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    modificationSeconds = Int64(info.st_mtim.tv_sec)
    modificationNanoseconds = Int64(info.st_mtim.tv_nsec)
  }

  /// The identity of what `path` names now, without following a final symbolic link.
  static func of(path: String) -> (identity: FileIdentity, mode: mode_t)? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return (FileIdentity(info), info.st_mode)
  }

  /// The modification time as a date.
  var modificationDate: Date {
    Date(
      timeIntervalSince1970: TimeInterval(modificationSeconds) + TimeInterval(
        modificationNanoseconds) / 1e9)
  }
}
