import FolioSystem
import FoundationEssentials
import Glibc

/// Compares what an archive would expand to with a folder on disk, path by path.
struct TreeComparison {
  /// The archive's items by path below the folder compared with (the top folder removed).
  let items: [String: VerificationTarget.Item]
  /// How many seconds a file's time may be older in the archive than on disk.
  let timeTolerance: Int64

  init(items: [String: VerificationTarget.Item], top: String?, timeTolerance: Int64) {
    if let top {
      var inside: [String: VerificationTarget.Item] = [:]
      let prefix = top + "/"
      for (path, item) in items where path.hasPrefix(prefix) {
        inside[String(path.dropFirst(prefix.count))] = item
      }
      self.items = inside
    } else {
      self.items = items
    }
    self.timeTolerance = timeTolerance
  }

  /// What the folder holds at one path.
  private struct OnDisk {
    var info: stat
    var isDirectory: Bool { info.st_mode & S_IFMT == S_IFDIR }
  }

  /// The differences, in path order.
  ///
  /// - Parameter root: The folder.
  /// - Throws: ``PackagingError`` (`not-a-directory`, `file-system`) naming the path that
  ///   cannot be read.
  func differences(from root: String) throws -> [ArchiveDifference] {
    var rootInfo = stat()
    guard lstat(root, &rootInfo) == 0, rootInfo.st_mode & S_IFMT == S_IFDIR else {
      throw PackagingError(.notADirectory, "'\(root)' is not a folder to compare with")
    }
    var tree: [String: OnDisk] = [:]
    try walk(root, relative: "", into: &tree)
    var differences: [ArchiveDifference] = []
    for path in Set(items.keys).union(tree.keys).sorted() {
      let name = EntryName(path)
      switch (items[path], tree[path]) {
      case (let item?, nil):
        differences.append(
          ArchiveDifference(path: name, kind: .missingFromFolder, archiveValue: Self.words(item)))
      case (nil, let disk?):
        differences.append(
          ArchiveDifference(
            path: name, kind: .missingFromArchive, folderValue: Self.words(disk.info)))
      case (let item?, let disk?):
        differences += try compare(item, disk, path: path, root: root)
      case (nil, nil):
        break
      }
    }
    return differences
  }

  private func walk(_ root: String, relative: String, into tree: inout [String: OnDisk]) throws {
    let folder = relative.isEmpty ? root : root + "/" + relative
    let names: [String]
    do {
      names = try FolderListing.names(atPath: folder)
    } catch {
      throw PackagingError(.fileSystem, "cannot list '\(folder)'", cause: error)
    }
    for name in names {
      let path = relative.isEmpty ? name : relative + "/" + name
      var info = stat()
      guard lstat(root + "/" + path, &info) == 0 else {
        throw PackagingError(
          .fileSystem, "cannot read '\(root)/\(path)'", cause: SystemError(errno: errno))
      }
      tree[path] = OnDisk(info: info)
      if info.st_mode & S_IFMT == S_IFDIR { try walk(root, relative: path, into: &tree) }
    }
  }

  private func compare(
    _ item: VerificationTarget.Item, _ disk: OnDisk, path: String, root: String
  ) throws -> [ArchiveDifference] {
    let name = EntryName(path)
    let type = disk.info.st_mode & S_IFMT
    var found: [ArchiveDifference] = []
    switch item.kind {
    case .directory:
      guard type == S_IFDIR else {
        return [kindDifference(name, item, disk)]
      }
    case .file(let size, let crc):
      guard type == S_IFREG else { return [kindDifference(name, item, disk)] }
      if size != Int64(disk.info.st_size) {
        found.append(
          ArchiveDifference(
            path: name, kind: .contents, archiveValue: "\(size) bytes",
            folderValue: "\(disk.info.st_size) bytes"))
      } else {
        let onDisk = try Self.crc(of: root + "/" + path)
        if onDisk != crc {
          found.append(
            ArchiveDifference(
              path: name, kind: .contents, archiveValue: "CRC-32 \(Self.hex(crc))",
              folderValue: "CRC-32 \(Self.hex(onDisk))"))
        }
      }
      if let time = item.time {
        let seconds = Int64(disk.info.st_mtim.tv_sec)
        let lag = seconds - time.seconds
        if lag < 0 || lag > timeTolerance {
          found.append(
            ArchiveDifference(
              path: name, kind: .modificationTime, archiveValue: Self.timeWords(time.seconds),
              folderValue: Self.timeWords(seconds)))
        }
      }
    case .symbolicLink(let target):
      guard type == S_IFLNK else { return [kindDifference(name, item, disk)] }
      let onDisk = try Self.linkTarget(root + "/" + path)
      if onDisk != target {
        found.append(
          ArchiveDifference(
            path: name, kind: .linkTarget,
            archiveValue: EntryName.escapeForListing(EntryName(bytes: target)),
            folderValue: EntryName.escapeForListing(EntryName(bytes: onDisk))))
      }
      return found  // a link's own mode and time mean nothing on Linux
    }
    if let permissions = item.permissions, permissions != disk.info.st_mode & 0o7777 {
      found.append(
        ArchiveDifference(
          path: name, kind: .permissions, archiveValue: Self.octal(permissions),
          folderValue: Self.octal(disk.info.st_mode & 0o7777)))
    }
    // Extended attributes (issue 33, section 1): compared here, as `.attributes`, once
    // archive entries carry them; until then neither side's attributes are read.
    return found
  }

  private func kindDifference(
    _ name: EntryName, _ item: VerificationTarget.Item, _ disk: OnDisk
  ) -> ArchiveDifference {
    ArchiveDifference(
      path: name, kind: .kind, archiveValue: Self.words(item), folderValue: Self.words(disk.info))
  }

  private static func words(_ item: VerificationTarget.Item) -> String {
    switch item.kind {
    case .directory: "folder"
    case .file(let size, _): "file, \(size) bytes"
    case .symbolicLink: "symbolic link"
    }
  }

  private static func words(_ info: stat) -> String {
    switch info.st_mode & S_IFMT {
    case S_IFDIR: "folder"
    case S_IFREG: "file, \(info.st_size) bytes"
    case S_IFLNK: "symbolic link"
    default: "special file"
    }
  }

  private static func octal(_ bits: UInt32) -> String {
    let digits = String(bits, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }

  private static func timeWords(_ seconds: Int64) -> String {
    Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601)
  }

  private static func crc(of path: String) throws -> UInt32 {
    do {
      let file = try ReadingFile(atPath: path)
      var crc: UInt32 = 0
      while true {
        let chunk = try file.read(upToCount: 1 << 20)
        if chunk.isEmpty { return crc }
        chunk.withUnsafeBytes { crc = LibDeflate.crc32(crc, $0) }
      }
    } catch {
      throw PackagingError(.fileSystem, "cannot read '\(path)'", cause: error)
    }
  }

  private static func linkTarget(_ path: String) throws -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = buffer.withUnsafeMutableBufferPointer {
      readlink(
        path, UnsafeMutableRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), $0.count
      )
    }
    guard count >= 0 else {
      throw PackagingError(
        .fileSystem, "cannot read the link '\(path)'", cause: SystemError(errno: errno))
    }
    return Array(buffer[..<count])
  }
}
