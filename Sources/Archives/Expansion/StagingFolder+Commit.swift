import FolioSystem
import FoundationEssentials
import Glibc
import Synchronization

extension StagingFolder {
  // MARK: Finishing

  /// Creates the symbolic links, applies folder modes and times deepest first,
  /// and, for a durable expansion, waits until every file and folder is on disk.
  ///
  /// - Parameter top: The archive's one top folder when it becomes the destination.
  /// - Returns: The folder to move into place.
  /// - Throws: ``PackagingError`` naming what could not be created or flushed.
  func prepare(top: String?) throws -> URL {
    for link in symbolicLinks {
      let parent = try directory(link.path.components.dropLast())
      let name = link.path.components[link.path.components.count - 1]
      let target = String(decoding: link.target, as: UTF8.self)
      guard symlinkat(target, parent, name) == 0 else {
        throw failure("cannot create the symbolic link", link.path)
      }
      if let time = link.time {
        try setTime(time, parent: parent, name: name, path: link.path)
      }
    }
    // A folder no entry names gets the usual 0755, as bsdtar and unzip give it.
    let implied = impliedDirectories.map {
      (RelativePath(components: $0), UInt32(0o755), Time?.none)
    }
    // Every file is written: how the flush ends is decided now, before folders get their
    // modes (a walk for files still finds every folder owner-only).
    flusher?.settle(
      root: root, name: "'\(url.path)'", writtenBytes: writtenBytes.load(ordering: .relaxed))
    // Deepest first, so restoring a parent's time comes after its children change it.
    let ordered = (directories + implied).sorted {
      $0.path.components.count > $1.path.components.count
    }
    for folder in ordered {
      let parent = try directory(folder.path.components.dropLast())
      let name = folder.path.components[folder.path.components.count - 1]
      // Through the folder's own descriptor (still owner-only, so it opens), which the
      // flusher then syncs with the time and mode just set.
      let descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      guard descriptor >= 0 else { throw failure("cannot open the folder", folder.path) }
      do {
        if let time = folder.time {
          var times = [Self.timespecOf(time), Self.timespecOf(time)]
          guard futimens(descriptor, &times) == 0 else {
            throw failure("cannot set the time of", folder.path)
          }
        }
        // The moved folder keeps owner write until it is in place (moving a folder
        // to another parent rewrites its `..`).
        let permissions =
          folder.path.components.count == 1 && top != nil ? 0o700 : folder.permissions
        guard fchmod(descriptor, mode_t(permissions)) == 0 else {
          throw failure("cannot set the mode of", folder.path)
        }
        if let acls = directoryACLs[folder.path.components] {
          setACLs(acls, descriptor: descriptor, path: folder.path)
        }
      } catch {
        close(descriptor)
        throw error
      }
      if let flusher {
        flusher.folderFinished(descriptor, name: EntryName(folder.path.string).display)
      } else {
        close(descriptor)
      }
    }
    closeDirectories()
    if let flusher {
      let descriptor = dup(root)
      if descriptor >= 0 {
        flusher.folderFinished(descriptor, name: "'\(url.path)'")
      }
      try flusher.waitForAll()
    }
    return movedRoot(top: top)
  }

  /// The folder that will be moved into place: the staging folder, or its one top folder.
  ///
  /// - Parameter top: The archive's one top folder when it becomes the destination.
  /// - Returns: The folder.
  func movedRoot(top: String?) -> URL {
    if let top { return url.appendingPathComponent(top, isDirectory: true) }
    return url
  }

  /// How an expansion treats an existing destination.
  enum Commit {
    /// Fail if the destination exists.
    case fresh
    /// Swap the destination for the new tree, then remove the old one.
    case replace
  }

  /// Moves the prepared tree into place and removes the staging folder.
  ///
  /// - Parameters:
  ///   - source: From ``prepare(top:)``.
  ///   - commit: Whether an existing destination is replaced.
  ///   - topPermissions: The moved folder's final mode (with the owner's access).
  /// - Throws: ``PackagingError`` (`output-exists`, `destination-write-failed`).
  func commit(_ source: URL, _ commit: Commit, topPermissions: UInt32?) throws {
    let target = destination.path
    var info = stat()
    let exists = lstat(target, &info) == 0
    if exists && commit == .fresh {
      throw PackagingError(ReplacePolicy.Refusal(reason: .exists, path: target))
    }
    // The destination's own mode never locks its owner out, whatever an archive entry
    // (`./` with mode 0000, a top folder with 0500) says: the owner keeps read, write and
    // search on the folder they asked to create. The final mode and time are set before the
    // move (a rename keeps both, and owner write is all the move needs), so a run killed
    // right after the move still leaves the whole new tree.
    if let topPermissions { chmod(source.path, mode_t(topPermissions | Self.ownerAccess)) }
    // The root entry's ACLs (`./`), before its mode: the mode then sets the owner's, the
    // mask's and others' entries as for the folder's mode, never locking the owner out, and
    // keeps the named users and groups.
    if source == url, let acls = directoryACLs[[]] {
      setACLs(acls, descriptor: root, path: RelativePath(components: []))
    }
    if source == url, let rootAttributes {
      chmod(source.path, mode_t(rootAttributes.permissions | Self.ownerAccess))
      if let time = rootAttributes.time { _ = Self.setTime(time, path: source.path) }
    } else if source == url {
      chmod(source.path, 0o755)
    }
    if let flusher {
      // That mode and time are flushed with the folder before the move: a failure here is
      // still before the commit, so nothing has changed at the destination.
      flusher.flushFolder(atPath: source.path, name: "'\(target)'")
      try flusher.waitForAll()
    }
    do {
      // Flushing is `prepare(top:)`'s business (or not wanted: --no-sync).
      try FileTree.move(source.path, to: target, replacing: exists, durable: false)
    } catch .targetExists {
      throw PackagingError(ReplacePolicy.Refusal(reason: .exists, path: target))
    } catch .failed(let cause) {
      throw moveFailure(source, cause.errno)
    }
    finished = true
    if let flusher {
      // The move: the folder holding the destination. The tree is in place and whole
      // already, so a failure to flush this is not one to undo it for.
      let folder = destination.deletingLastPathComponent().path
      flusher.flushFolder(atPath: folder, name: "'\(folder)'")
      try? flusher.waitForAll()
    }
    FileTree.remove(atPath: url.path)
  }

  /// The bits the destination folder always keeps for its owner (`u+rwx`).
  static let ownerAccess: UInt32 = 0o700

  /// Removes the staging folder and everything in it.
  func discard() {
    closeDirectories()
    finished = true
    FileTree.remove(atPath: url.path)
  }
}
