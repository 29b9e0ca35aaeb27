import Archives
import FolioSystem
package import FoundationEssentials
import Glibc

/// Puts a finished tree in place of another in one step, and makes linked copies of trees.
///
/// Used by file wrappers' atomic writes and by document sessions' saves: the new tree
/// is made beside the target under a temporary name, then swapped in.
package enum TreeReplacement {
  /// A path beside `target` where nothing exists, for building its replacement.
  ///
  /// - Parameter target: The file or folder to be replaced (or created).
  /// - Returns: `<folder>/.<name>.folio-tmp-<pid>-<random>` (FolioSystem's ``TemporaryName``).
  package static func temporarySibling(of target: URL) -> URL {
    URL(fileURLWithPath: TemporaryName.beside(target.standardizedFileURL.path))
  }

  /// Renames a finished tree over `target` in one step (FolioSystem's
  /// ``FileTree/move(_:to:replacing:durable:)``): a plain rename when nothing
  /// or a file is there, an atomic swap with an existing folder (whose old
  /// tree is then removed).
  ///
  /// - Parameters:
  ///   - temporary: The finished tree.
  ///   - target: Where it goes.
  /// - Throws: ``PackagingError`` when the rename fails; `temporary` is left for the caller.
  package static func move(_ temporary: String, over target: String) throws {
    do {
      try FileTree.move(temporary, to: target, replacing: true)
    } catch .targetExists {
      throw PackagingError.system("cannot move '\(target)' into place", errno: EEXIST)
    } catch .failed(let cause) {
      throw PackagingError.system("cannot move '\(target)' into place", errno: cause.errno)
    }
  }

  /// Copies a folder's tree with every regular file hard-linked to the original's.
  ///
  /// Folders are made anew (with the original's permissions and dates), symbolic links
  /// copied; a file that cannot be linked (another file system) is copied.
  ///
  /// - Parameters:
  ///   - source: The folder to copy.
  ///   - destination: Where to make the copy; nothing may exist there.
  /// - Throws: ``PackagingError`` naming what could not be copied.
  package static func linkedCopy(of source: String, at destination: String) throws {
    var info = stat()
    guard lstat(source, &info) == 0 else {
      throw PackagingError.system("cannot read '\(source)'", errno: errno)
    }
    switch info.st_mode & S_IFMT {
    case S_IFDIR:
      guard mkdir(destination, 0o700) == 0 else {
        throw PackagingError.system("cannot create '\(destination)'", errno: errno)
      }
      let names: [String]
      do {
        names = try FolderListing.names(atPath: source)
      } catch {
        throw PackagingError(.fileUnreadable, "cannot list '\(source)'", cause: error)
      }
      for name in names {
        try linkedCopy(of: source + "/" + name, at: destination + "/" + name)
      }
      chmod(destination, info.st_mode & 0o7777)
      var times = [info.st_atim, info.st_mtim]
      utimensat(AT_FDCWD, destination, &times, 0)
    case S_IFREG:
      if link(source, destination) == 0 { return }
      try copyFile(source, destination, mode: info.st_mode & 0o7777)
    case S_IFLNK:
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(source, &buffer, buffer.count - 1)
      guard count >= 0 else {
        throw PackagingError.system("cannot read the link '\(source)'", errno: errno)
      }
      buffer[count] = 0
      guard symlink(buffer, destination) == 0 else {
        throw PackagingError.system("cannot create the link '\(destination)'", errno: errno)
      }
    default:
      throw PackagingError(
        .fileUnreadable, "'\(source)' is a device, socket or pipe, which a document cannot hold")
    }
  }

  private static func copyFile(_ source: String, _ destination: String, mode: mode_t) throws {
    let input = open(source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard input >= 0 else { throw PackagingError.system("cannot read '\(source)'", errno: errno) }
    defer { close(input) }
    let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard output >= 0 else {
      throw PackagingError.system("cannot create '\(destination)'", errno: errno)
    }
    defer { close(output) }
    var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    while true {
      let count = read(input, &buffer, buffer.count)
      if count < 0 {
        if errno == EINTR { continue }
        throw PackagingError.system("cannot read '\(source)'", errno: errno)
      }
      if count == 0 { break }
      var offset = 0
      while offset < count {
        let written = buffer.withUnsafeBytes {
          write(output, $0.baseAddress! + offset, count - offset)
        }
        if written < 0 {
          if errno == EINTR { continue }
          throw PackagingError.system("cannot write '\(destination)'", errno: errno)
        }
        offset += written
      }
    }
  }
}
