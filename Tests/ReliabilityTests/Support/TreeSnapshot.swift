import Foundation

/// Everything about a folder tree a user could notice: names, kinds, bytes, modes,
/// modification times, inodes and symlink targets, taken with `lstat` (links not followed).
struct TreeSnapshot: Equatable, Sendable {
  /// One entry of the tree.
  struct Entry: Equatable, Sendable {
    enum Kind: String, Sendable { case file, directory, symlink, other }

    var kind: Kind
    var mode: UInt32
    var size: Int64
    var modified: Int64  // nanoseconds since 1970
    var inode: UInt64
    var contents: Data?
    var target: String?
  }

  /// Entries by path relative to the root (`""` is the root itself).
  var entries: [String: Entry]

  /// Takes a snapshot; an absent root gives an empty snapshot.
  ///
  /// - Parameters:
  ///   - root: The tree (a file or a folder).
  ///   - contents: Whether to keep file bytes (else sizes, times and inodes only).
  /// - Returns: The snapshot.
  static func take(_ root: URL, contents: Bool = true) -> TreeSnapshot {
    var entries: [String: Entry] = [:]
    visit(root.path, relative: "", contents: contents, into: &entries)
    return TreeSnapshot(entries: entries)
  }

  private static func visit(
    _ path: String, relative: String, contents: Bool, into entries: inout [String: Entry]
  ) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    let type = info.st_mode & S_IFMT
    let kind: Entry.Kind =
      switch type {
      case S_IFREG: .file
      case S_IFDIR: .directory
      case S_IFLNK: .symlink
      default: .other
      }
    var entry = Entry(
      kind: kind, mode: UInt32(info.st_mode & 0o7777), size: Int64(info.st_size),
      modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
      inode: UInt64(info.st_ino))
    switch kind {
    case .file where contents:
      entry.contents = FileManager.default.contents(atPath: path)
    case .symlink:
      entry.target = try? FileManager.default.destinationOfSymbolicLink(atPath: path)
    case .directory:
      entry.size = 0  // directory sizes depend on the file system's bookkeeping
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      for name in names {
        visit(
          path + "/" + name, relative: relative.isEmpty ? name : relative + "/" + name,
          contents: contents, into: &entries)
      }
    default: break
    }
    entries[relative] = entry
  }

  /// Human-readable differences from another snapshot, empty when they are equal.
  ///
  /// - Parameter other: The snapshot taken before.
  /// - Returns: One line per difference.
  func differences(from other: TreeSnapshot) -> [String] {
    var lines: [String] = []
    for path in Set(entries.keys).union(other.entries.keys).sorted() {
      switch (other.entries[path], entries[path]) {
      case (nil, .some): lines.append("added: \(path)")
      case (.some, nil): lines.append("removed: \(path)")
      case (let before?, let after?) where before != after:
        var what: [String] = []
        if before.kind != after.kind { what.append("kind") }
        if before.mode != after.mode { what.append("mode") }
        if before.size != after.size { what.append("size") }
        if before.modified != after.modified { what.append("mtime") }
        if before.inode != after.inode { what.append("inode") }
        if before.contents != after.contents { what.append("bytes") }
        if before.target != after.target { what.append("link target") }
        lines.append("changed \(what.joined(separator: ", ")): \(path)")
      default: break
      }
    }
    return lines
  }

  /// Paths whose entries differ as a user sees them after restoring from an archive.
  ///
  /// Compared: kinds, permission bits, bytes, symlink targets and modification times in
  /// whole seconds (inodes and sub-second times aside). When the root is a file (an
  /// archive), its own time is when it was written, so it is not compared.
  ///
  /// - Parameter other: The other tree.
  /// - Returns: The differing paths, empty when equal.
  func contentDifferences(from other: TreeSnapshot) -> [String] {
    func normalised(_ snapshot: TreeSnapshot) -> [String: Entry] {
      let rootIsFile = snapshot.entries[""]?.kind == .file
      return snapshot.entries.mapValues {
        var entry = $0
        entry.inode = 0
        let untimed = entry.kind == .symlink || (rootIsFile && entry.kind == .file)
        entry.modified = untimed ? 0 : entry.modified / 1_000_000_000
        entry.mode = entry.kind == .symlink ? 0 : entry.mode
        entry.size = entry.kind == .file ? entry.size : 0
        return entry
      }
    }
    let mine = normalised(self)
    let theirs = normalised(other)
    return Set(mine.keys).union(theirs.keys).sorted().filter { mine[$0] != theirs[$0] }
  }
}
