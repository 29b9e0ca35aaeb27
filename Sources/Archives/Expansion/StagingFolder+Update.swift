import FolioSystem
import FoundationEssentials
import Glibc

extension StagingFolder {
  /// Replaces staged files whose bytes equal the destination's with hard links to the
  /// destination's files, so unchanged files keep their inode and modification time.
  ///
  /// The existing destination is walked with `openat(O_NOFOLLOW)` from its own folder
  /// down, never through a symbolic link it holds: with `DEST/sub -> ../outside`, the
  /// files under `outside` are not "unchanged files of DEST", and adopting one would
  /// share its inode with a file outside the destination. A file is adopted only when
  /// every folder on its way is a real folder and the file itself a regular file; the
  /// descriptor of its folder pins the folder for the comparison and the link.
  ///
  /// Call it before ``prepare(top:)``: linking and renaming inside a folder changes the
  /// folder's time, which `prepare` then restores, and `prepare` flushes the links too.
  ///
  /// - Parameters:
  ///   - source: The folder that will be moved into place.
  ///   - top: The top folder's name when it is unwrapped.
  /// - Returns: How many files were kept.
  func adoptUnchangedFiles(source: URL, top: String?) throws -> Int {
    let existingRoot = SystemCall.retryingInterrupts {
      open(destination.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    }
    guard existingRoot >= 0 else { return 0 }  // not a folder (or a link): nothing to keep
    var folders = ExistingFolders(root: existingRoot)
    defer { folders.closeAll() }
    var kept = 0
    for file in files {
      var components = file.path.components[...]
      if let top {
        guard components.first == top else { continue }
        components = components.dropFirst()
      }
      guard let name = components.last,
        let folder = folders.descriptor(for: components.dropLast())
      else { continue }
      let relative = components.joined(separator: "/")
      let staged = source.appendingPathComponent(relative).path
      var stagedInfo = stat()
      var existingInfo = stat()
      guard lstat(staged, &stagedInfo) == 0, stagedInfo.st_nlink == 1,
        fstatat(folder, name, &existingInfo, AT_SYMLINK_NOFOLLOW) == 0,
        existingInfo.st_mode & S_IFMT == S_IFREG,
        existingInfo.st_size == stagedInfo.st_size,
        // A new mode makes it a changed file: changing the shared inode's mode here would
        // alter the destination before the commit (and for good if the commit failed).
        existingInfo.st_mode & 0o7777 == stagedInfo.st_mode & 0o7777,
        try Self.sameBytes(staged, existing: (folder, name), existingPath: relative),
        // Attributes are part of a file as expand restores it: a file whose attributes
        // changed is a changed file, or the update would keep the old ones.
        Self.sameExtendedAttributes(staged, existing: "/proc/self/fd/\(folder)/\(name)")
      else { continue }
      let temporary = staged + ".folio-keep"
      // Flags 0: the name is linked itself, never what a link there points at. On another
      // file system the link fails: the new copy is kept instead.
      guard linkat(folder, name, AT_FDCWD, temporary, 0) == 0 else { continue }
      guard rename(temporary, staged) == 0 else {
        unlink(temporary)
        throw PackagingError(
          .destinationWriteFailed,
          "cannot keep the unchanged file '\(destination.appendingPathComponent(relative).path)'",
          cause: SystemError(errno: errno))
      }
      kept += 1
    }
    return kept
  }

  /// The folders of the existing destination, opened one component at a time without
  /// following links, and kept open while their files are compared.
  private struct ExistingFolders {
    let root: Int32
    private var open: [String: Int32] = [:]

    init(root: Int32) { self.root = root }

    /// The descriptor of a folder below the root, or `nil` when a component on the way is
    /// not a real folder (a symbolic link, a file, nothing).
    mutating func descriptor(for components: ArraySlice<String>) -> Int32? {
      if components.isEmpty { return root }
      let key = components.joined(separator: "/")
      if let known = open[key] { return known >= 0 ? known : nil }
      guard let parent = descriptor(for: components.dropLast()) else {
        open[key] = -1
        return nil
      }
      let name = components[components.endIndex - 1]
      let descriptor = SystemCall.retryingInterrupts {
        openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      }
      if open.count >= StagingFolder.directoryCacheLimit { closeAll(keepingRoot: true) }
      open[key] = descriptor
      return descriptor >= 0 ? descriptor : nil
    }

    mutating func closeAll(keepingRoot: Bool = false) {
      for descriptor in open.values where descriptor >= 0 { close(descriptor) }
      open.removeAll()
      if !keepingRoot { close(root) }
    }
  }

  /// Whether a staged file holds the same bytes as an existing one (opened by name in its
  /// folder, never through a link).
  ///
  /// - Throws: ``PackagingError`` naming the file that cannot be read.
  /// Whether two files carry the same `user.*` attributes and ACLs (the ones expand sets),
  /// compared by name and value; a file system that keeps none counts as none.
  ///
  /// - Parameters:
  ///   - staged: The new file.
  ///   - existing: The destination's file, through its pinned folder (`/proc/self/fd/N/name`,
  ///     whose last component is not followed).
  private static func sameExtendedAttributes(_ staged: String, existing: String) -> Bool {
    func attributes(_ path: String) -> [[UInt8]: [UInt8]]? {
      guard let names = try? ExtendedAttributes.names(atPath: path) else { return [:] }
      var result: [[UInt8]: [UInt8]] = [:]
      for name in names {
        let text = String(decoding: name, as: UTF8.self)
        guard
          text.hasPrefix("user.") || text == ExtendedAttribute.accessACLName
            || text == ExtendedAttribute.defaultACLName
        else { continue }
        guard let value = try? ExtendedAttributes.value(of: name, atPath: path) else {
          return nil
        }
        result[name] = value
      }
      return result
    }
    guard let new = attributes(staged), let old = attributes(existing) else { return false }
    return new == old
  }

  private static func sameBytes(
    _ staged: String, existing: (folder: Int32, name: String), existingPath: String
  ) throws -> Bool {
    let one = SystemCall.retryingInterrupts { open(staged, O_RDONLY | O_CLOEXEC) }
    guard one >= 0 else { return false }
    defer { close(one) }
    let two = SystemCall.retryingInterrupts {
      openat(existing.folder, existing.name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    }
    guard two >= 0 else { return false }
    defer { close(two) }
    let chunk = 1 << 16
    var left = [UInt8](repeating: 0, count: chunk)
    var right = [UInt8](repeating: 0, count: chunk)
    while true {
      let leftCount = try readFully(one, into: &left, path: staged)
      let rightCount = try readFully(two, into: &right, path: existingPath)
      if leftCount != rightCount || left[0..<leftCount] != right[0..<rightCount] { return false }
      if leftCount == 0 { return true }
    }
  }

  /// Fills `buffer` from a descriptor (less only at the end of the file).
  private static func readFully(_ descriptor: Int32, into buffer: inout [UInt8], path: String)
    throws -> Int
  {
    var filled = 0
    while filled < buffer.count {
      let count = buffer.withUnsafeMutableBytes { raw in
        SystemCall.retryingInterrupts {
          Glibc.read(descriptor, raw.baseAddress! + filled, raw.count - filled)
        }
      }
      if count < 0 {
        throw PackagingError(
          .destinationWriteFailed, "cannot read '\(path)' to compare it with the archive's copy",
          cause: SystemError(errno: errno))
      }
      if count == 0 { break }
      filled += count
    }
    return filled
  }
}

extension StagingFolder {
  /// The files and links below `existing` that `replacement` does not have at the same path.
  ///
  /// What an update removes. Neither tree's symbolic links are followed.
  ///
  /// - Parameters:
  ///   - replacement: The tree about to be swapped in.
  ///   - existing: The destination it replaces.
  /// - Returns: Paths relative to both, sorted.
  static func pathsMissing(from replacement: URL, comparedWith existing: URL) -> [String] {
    var missing: [String] = []
    func walk(_ relative: String) {
      let folder = relative.isEmpty ? existing.path : existing.path + "/" + relative
      guard let names = try? FolderListing.names(atPath: folder) else { return }
      for name in names {
        let path = relative.isEmpty ? name : relative + "/" + name
        var info = stat()
        guard lstat(existing.path + "/" + path, &info) == 0 else { continue }
        if info.st_mode & S_IFMT == S_IFDIR {
          walk(path)
        } else if lstat(replacement.path + "/" + path, &info) != 0 {
          missing.append(path)
        }
      }
    }
    walk("")
    return missing.sorted()
  }
}
