public import Foundation

/// Everything a lossless archive round trip must keep of a folder tree:
/// each entry's kind, permission bits, modification time (whole seconds),
/// file bytes and link targets, keyed by path below the root.
///
/// Compare two manifests with `==`; ``differences(from:)`` names what differs.
public struct TreeManifest: Equatable, CustomStringConvertible {
  /// One entry of a tree.
  public struct Entry: Equatable, CustomStringConvertible {
    /// `directory`, `file`, `symlink` or `other`.
    public var kind: String
    /// Permission bits (`0o7777`); 0 for symbolic links, whose bits mean nothing on Linux.
    public var permissions: UInt32
    /// Modification time, whole seconds since 1970.
    public var modificationTime: Int
    /// A file's bytes.
    public var contents: Data?
    /// A symbolic link's target.
    public var linkTarget: String?
    /// The inode, to tell hard links apart (not compared).
    public var inode: UInt64

    public static func == (lhs: Entry, rhs: Entry) -> Bool {
      lhs.kind == rhs.kind && lhs.permissions == rhs.permissions
        && lhs.modificationTime == rhs.modificationTime && lhs.contents == rhs.contents
        && lhs.linkTarget == rhs.linkTarget
    }

    public var description: String {
      var text = "\(kind) \(String(permissions, radix: 8)) mtime \(modificationTime)"
      if let contents { text += " \(contents.count) bytes" }
      if let linkTarget { text += " -> \(linkTarget)" }
      return text
    }
  }

  /// The entries by relative path (`""` is the root).
  public var entries: [String: Entry]

  /// Reads a tree without following symbolic links.
  ///
  /// - Parameters:
  ///   - root: The tree's root folder.
  ///   - includeRoot: Whether to record the root folder's own attributes.
  /// - Throws: When an entry cannot be read.
  public init(of root: URL, includeRoot: Bool = true) throws {
    entries = [:]
    try record(root.path, relative: "", includeSelf: includeRoot)
  }

  private mutating func record(_ path: String, relative: String, includeSelf: Bool) throws {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
    }
    var entry = Entry(
      kind: "other", permissions: UInt32(info.st_mode & 0o7777),
      modificationTime: info.st_mtim.tv_sec, contents: nil, linkTarget: nil,
      inode: UInt64(info.st_ino))
    switch info.st_mode & S_IFMT {
    case S_IFDIR:
      entry.kind = "directory"
      let names = try FileManager.default.contentsOfDirectory(atPath: path)
      for name in names {
        try record(
          path + "/" + name, relative: relative.isEmpty ? name : relative + "/" + name,
          includeSelf: true)
      }
    case S_IFREG:
      entry.kind = "file"
      entry.contents = try Data(contentsOf: URL(fileURLWithPath: path))
    case S_IFLNK:
      entry.kind = "symlink"
      entry.permissions = 0
      entry.linkTarget = try FileManager.default.destinationOfSymbolicLink(atPath: path)
    default:
      break
    }
    if includeSelf { entries[relative] = entry }
  }

  /// One line per path that is missing, extra or different, sorted.
  ///
  /// - Parameter other: The manifest expected.
  /// - Returns: The differences; empty when the trees match.
  public func differences(from other: TreeManifest) -> [String] {
    var lines: [String] = []
    for path in Set(entries.keys).union(other.entries.keys).sorted() {
      switch (other.entries[path], entries[path]) {
      case (let expected?, nil): lines.append("missing '\(path)': \(expected)")
      case (nil, let actual?): lines.append("extra '\(path)': \(actual)")
      case (let expected?, let actual?) where expected != actual:
        lines.append("'\(path)': expected \(expected), got \(actual)")
      default: break
      }
    }
    return lines
  }

  public var description: String {
    entries.keys.sorted().map { "\($0): \(entries[$0].map(\.description) ?? "")" }
      .joined(separator: "\n")
  }
}
