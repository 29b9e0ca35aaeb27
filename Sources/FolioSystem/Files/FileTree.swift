import Glibc

/// Whole trees on disk: the one `removeTree`, the one move into place, and
/// flushing a folder's entries.
package enum FileTree {
  // MARK: Removing

  /// Removes a file, link or whole folder tree, ignoring what is already gone.
  ///
  /// Symbolic links are removed, never followed. Folders get owner
  /// permissions first, so read-only and unsearchable ones go too. Folders
  /// are listed with `readdir` (``FolderListing``), not `FileManager`, whose
  /// listing on Linux leaves out an entry named exactly `._`; names are kept
  /// as bytes, so any name goes. Failures are ignored: what cannot be removed
  /// stays (the caller's next run, or ``LeftoverTemporaries``, tries again).
  ///
  /// - Parameter path: The tree's root.
  package static func remove(atPath path: String) {
    remove(bytes: Array(path.utf8))
  }

  private static func remove(bytes path: [UInt8]) {
    let cPath = path.map { CChar(bitPattern: $0) } + [0]
    var info = stat()
    guard lstat(cPath, &info) == 0 else { return }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      unlink(cPath)
      return
    }
    chmod(cPath, 0o700)
    let folder = open(cPath, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    if folder >= 0 {
      removeContents(of: folder)
      close(folder)
    }
    rmdir(cPath)
  }

  /// Empties an open folder, relative to descriptors and in a loop: a tree deeper than
  /// `PATH_MAX` (which a pack can walk) is removed too, and depth costs no stack.
  private static func removeContents(of root: Int32) {
    /// A folder being emptied: its descriptor, its name in its parent, the names left.
    struct Level {
      var folder: Int32
      var name: [UInt8]
      var names: [[UInt8]]
    }
    func names(in folder: Int32) -> [[UInt8]] {
      var names: [[UInt8]] = []
      try? FolderListing.forEachNameInPlace(inFolder: folder) { name in
        names.append(Array(name))
        return true
      }
      return names
    }
    var levels = [Level(folder: root, name: [], names: names(in: root))]
    defer {
      for level in levels.dropFirst() { close(level.folder) }
    }
    while let last = levels.indices.last {
      guard let name = levels[last].names.popLast() else {
        guard last > 0 else { return }
        let done = levels.removeLast()
        close(done.folder)
        let cName = done.name.map { CChar(bitPattern: $0) } + [0]
        unlinkat(levels[last - 1].folder, cName, AT_REMOVEDIR)
        continue
      }
      let folder = levels[last].folder
      let cName = name.map { CChar(bitPattern: $0) } + [0]
      var info = stat()
      guard fstatat(folder, cName, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
      guard info.st_mode & S_IFMT == S_IFDIR else {
        unlinkat(folder, cName, 0)
        continue
      }
      fchmodat(folder, cName, 0o700, 0)
      let child = openat(folder, cName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      guard child >= 0 else {
        unlinkat(folder, cName, AT_REMOVEDIR)  // empty, or it stays
        continue
      }
      levels.append(Level(folder: child, name: name, names: names(in: child)))
    }
  }

  // MARK: Moving into place

  /// Why a move into place failed.
  package enum MoveFailure: Error, Sendable, Equatable {
    /// Something is at the target and the move may not replace it.
    case targetExists
    /// A rename failed: the target is as it was, the source still in place.
    case failed(SystemError)
  }

  /// Moves a finished file or tree to its target in one step, so a reader
  /// sees the old target or the new one, never half of one.
  ///
  /// Without `replacing`, an existing target (of any kind) fails the move
  /// with ``MoveFailure/targetExists`` and is left alone (`renameat2` with
  /// `RENAME_NOREPLACE`; where the file system lacks it, a link for a file, a
  /// checked rename for a folder). With it, a file or a missing target is
  /// replaced by a plain rename; a folder (or a file becoming a folder, or
  /// the reverse) is swapped in atomically (`RENAME_EXCHANGE`) and the old
  /// tree removed; where swaps are missing, the old target moves aside
  /// (``TemporaryName/Kind/aside``) first and back if the second rename fails.
  ///
  /// - Parameters:
  ///   - source: The finished file or tree, beside the target.
  ///   - target: Where it goes.
  ///   - replacing: Whether an existing target may be replaced.
  ///   - durable: Whether to flush the target's folder afterwards.
  /// - Throws: ``MoveFailure``; the source is left for the caller to remove.
  package static func move(
    _ source: String, to target: String, replacing: Bool, durable: Bool = true
  ) throws(MoveFailure) {
    if replacing {
      try replace(target, with: source)
    } else {
      try place(source, at: target)
    }
    if durable { synchronizeFolder(of: target) }
  }

  private static func place(_ source: String, at target: String) throws(MoveFailure) {
    if LinuxCalls.rename(source, target, flags: LinuxCalls.renameNoReplace) == 0 { return }
    let code = errno
    if code == EEXIST { throw .targetExists }
    guard code == ENOSYS || code == EINVAL else { throw .failed(SystemError(errno: code)) }
    if !isFolder(source) {
      // A link fails rather than replaces; some file systems refuse links, so fall back.
      if link(source, target) == 0 {
        unlink(source)
        return
      }
      if errno == EEXIST { throw .targetExists }
    }
    if exists(target) { throw .targetExists }
    guard rename(source, target) == 0 else { throw .failed(.current) }
  }

  private static func replace(_ target: String, with source: String) throws(MoveFailure) {
    if !isFolder(target) || !exists(target) {
      if rename(source, target) == 0 { return }
      let code = errno
      guard code == EISDIR || code == ENOTDIR || code == ENOTEMPTY || code == EEXIST else {
        throw .failed(SystemError(errno: code))
      }
    }
    if LinuxCalls.rename(source, target, flags: LinuxCalls.renameExchange) == 0 {
      remove(atPath: source)  // now the old target
      return
    }
    let code = errno
    guard code == ENOSYS || code == EINVAL else { throw .failed(SystemError(errno: code)) }
    // No atomic swap on this file system: move the old target aside first.
    let aside = TemporaryName.beside(target, kind: .aside)
    guard rename(target, aside) == 0 else { throw .failed(.current) }
    guard rename(source, target) == 0 else {
      let failure = SystemError.current
      _ = rename(aside, target)
      throw .failed(failure)
    }
    remove(atPath: aside)
  }

  // MARK: Creating

  /// Creates a folder and any missing folders above it (`mkdir -p`), with a mode for those
  /// it creates; a folder already there is fine.
  ///
  /// - Parameters:
  ///   - path: The folder.
  ///   - permissions: The mode of each folder created (before the umask).
  /// - Throws: ``SystemError`` when a folder cannot be created (`EEXIST` when a file is in
  ///   the way of it or of one above it).
  package static func createFolders(atPath path: String, permissions: UInt32 = 0o755)
    throws(SystemError)
  {
    if isFolderFollowingLinks(path) { return }
    let parent = TemporaryName.split(path).folder
    if parent != path, !parent.isEmpty, parent != "/" {
      try createFolders(atPath: parent, permissions: permissions)
    }
    guard mkdir(path, mode_t(permissions)) == 0 else {
      let error = SystemError.current
      // Another process made it meanwhile.
      if error.errno == EEXIST, isFolderFollowingLinks(path) { return }
      throw error
    }
  }

  /// Whether a path is a folder or a symbolic link to one, as Foundation's
  /// `fileExists(atPath:isDirectory:)` answers.
  ///
  /// - Parameter path: The path.
  /// - Returns: Whether `stat` (which follows links) finds a folder.
  package static func isFolderFollowingLinks(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  // MARK: Examining and flushing

  /// Whether anything (file, folder, link, even a dangling one) is at a path.
  package static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// Whether a path is a folder (a final symbolic link is not followed).
  package static func isFolder(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  /// Flushes a folder's entries (new names, renames) to disk; best effort.
  ///
  /// - Parameter path: The folder.
  package static func synchronizeFolder(_ path: String) {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = SystemCall.retryingInterrupts { fsync(descriptor) }
    close(descriptor)
  }

  /// Flushes the entries of the folder holding `path`; best effort.
  ///
  /// - Parameter path: A file or folder whose name changed.
  package static func synchronizeFolder(of path: String) {
    synchronizeFolder(TemporaryName.split(path).folder)
  }
}
