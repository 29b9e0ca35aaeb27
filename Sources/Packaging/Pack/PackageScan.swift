import Foundation

/// A package's tree, scanned once before packing: every entry in archive
/// order (each folder before its contents, names sorted by their UTF-8
/// bytes), with its kind and attributes, and the totals for progress.
///
/// The scan walks the tree itself with `openat`/`fstatat` relative to folder
/// descriptors, never following symbolic links, rather than through
/// `archive_read_disk`.
struct PackageScan {
  /// One thing to write.
  struct Item {
    enum Kind {
      case directory
      case file(size: Int64)
      case symbolicLink(target: String)
      /// A second name of a file already listed (same device and inode).
      case hardLink(firstRelativePath: String, size: Int64)
    }

    /// The path below the package root, `/`-separated; empty for the root.
    var relativePath: String
    var kind: Kind
    var info: stat
  }

  /// The entries, in archive order.
  var items: [Item] = []
  /// Regular files, counting every name of a hard-linked file.
  var fileCount = 0
  /// The bytes of every regular file, counting a hard-linked file once.
  var uniqueByteCount: Int64 = 0
  /// The bytes of every regular file name, counting hard links in full.
  var fullByteCount: Int64 = 0

  /// The most symbolic links followed while deciding where one link points.
  static let maximumLinkHops = 40

  /// Scans a package.
  ///
  /// - Parameters:
  ///   - root: An open descriptor of the package folder.
  ///   - rootPath: The package's path, for messages.
  ///   - allowExternalSymlinks: Whether links leaving the package are kept.
  /// - Throws: ``PackagingError`` naming the path of a socket, device, FIFO,
  ///   external link, non-UTF-8 name or unreadable folder.
  static func scan(root: Int32, rootPath: String, allowExternalSymlinks: Bool) throws -> PackageScan
  {
    var scan = PackageScan()
    var info = stat()
    guard fstat(root, &info) == 0 else {
      throw PackagingError.system("cannot read the attributes of '\(rootPath)'", errno: errno)
    }
    scan.items.append(Item(relativePath: "", kind: .directory, info: info))
    var firstNames: [FileIdentity: String] = [:]
    try scan.walk(
      folder: root, relativePath: "", rootPath: rootPath, root: root,
      allowExternalSymlinks: allowExternalSymlinks, firstNames: &firstNames)
    return scan
  }

  private struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  private mutating func walk(
    folder: Int32, relativePath: String, rootPath: String, root: Int32,
    allowExternalSymlinks: Bool, firstNames: inout [FileIdentity: String]
  ) throws {
    let names = try Self.sortedNames(folder: folder, displayPath: Self.join(rootPath, relativePath))
    for name in names {
      let childPath = relativePath.isEmpty ? name : relativePath + "/" + name
      let displayPath = Self.join(rootPath, childPath)
      var info = stat()
      guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
        throw PackagingError.system("cannot read the attributes of '\(displayPath)'", errno: errno)
      }
      switch info.st_mode & S_IFMT {
      case S_IFDIR:
        items.append(Item(relativePath: childPath, kind: .directory, info: info))
        let child = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0 else {
          throw PackagingError.system("cannot open folder '\(displayPath)'", errno: errno)
        }
        defer { close(child) }
        try walk(
          folder: child, relativePath: childPath, rootPath: rootPath, root: root,
          allowExternalSymlinks: allowExternalSymlinks, firstNames: &firstNames)
      case S_IFREG:
        let size = Int64(info.st_size)
        fileCount += 1
        fullByteCount += size
        if info.st_nlink > 1 {
          let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
          if let first = firstNames[identity] {
            items.append(
              Item(
                relativePath: childPath, kind: .hardLink(firstRelativePath: first, size: size),
                info: info))
            continue
          }
          firstNames[identity] = childPath
        }
        uniqueByteCount += size
        items.append(Item(relativePath: childPath, kind: .file(size: size), info: info))
      case S_IFLNK:
        let target = try Self.readLink(folder: folder, name: name, displayPath: displayPath)
        if !allowExternalSymlinks {
          let parent = relativePath.split(separator: "/").map(String.init)
          if !Self.staysInside(root: root, linkFolder: parent, target: target) {
            throw PackagingError(
              .externalSymlink,
              "symbolic link '\(displayPath)' points outside the package (to '\(target)'); "
                + "use --allow-external-symlinks to store it as a link")
          }
        }
        items.append(Item(relativePath: childPath, kind: .symbolicLink(target: target), info: info))
      default:
        throw PackagingError(
          .unsupportedFileType,
          "'\(displayPath)' is \(Self.describe(info.st_mode)): sockets, devices and FIFOs cannot be packed"
        )
      }
    }
  }

  private static func join(_ root: String, _ relative: String) -> String {
    relative.isEmpty ? root : root + "/" + relative
  }

  private static func describe(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    default: "of an unknown file type"
    }
  }

  private static func sortedNames(folder: Int32, displayPath: String) throws -> [String] {
    let duplicate = dup(folder)
    guard duplicate >= 0, let stream = fdopendir(duplicate) else {
      let code = errno
      if duplicate >= 0 { close(duplicate) }
      throw PackagingError.system("cannot list folder '\(displayPath)'", errno: code)
    }
    defer { closedir(stream) }
    var names: [String] = []
    while true {
      errno = 0
      guard let record = readdir(stream) else {
        if errno != 0 {
          throw PackagingError.system("cannot list folder '\(displayPath)'", errno: errno)
        }
        break
      }
      let name: String? = withUnsafePointer(to: record.pointee.d_name) { tuple in
        tuple.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { characters in
          if characters[0] == 0x2E
            && (characters[1] == 0 || (characters[1] == 0x2E && characters[2] == 0))
          {
            return ""
          }
          guard let text = String(validatingCString: characters) else { return nil }
          return text
        }
      }
      guard let name else {
        throw PackagingError(
          .invalidEntry, "a name in '\(displayPath)' is not valid UTF-8; archives store UTF-8 names"
        )
      }
      if !name.isEmpty { names.append(name) }
    }
    names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    return names
  }

  private static func readLink(folder: Int32, name: String, displayPath: String) throws -> String {
    var capacity = 256
    while true {
      var bytes = [CChar](repeating: 0, count: capacity)
      let count = readlinkat(folder, name, &bytes, capacity)
      if count < 0 {
        throw PackagingError.system("cannot read symbolic link '\(displayPath)'", errno: errno)
      }
      if count < capacity {
        let target = bytes[0..<count].withUnsafeBufferPointer { buffer in
          String(validating: buffer.lazy.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard let target else {
          throw PackagingError(.invalidEntry, "the target of '\(displayPath)' is not valid UTF-8")
        }
        return target
      }
      capacity *= 4
    }
  }

  /// Whether a link's target, resolved from its folder through any links
  /// inside the package, stays inside the package.
  static func staysInside(root: Int32, linkFolder: [String], target: String) -> Bool {
    if target.hasPrefix("/") { return false }
    var stack = linkFolder
    var pending = Array(target.split(separator: "/", omittingEmptySubsequences: true).reversed())
    var hops = 0
    while let component = pending.popLast() {
      if component == "." { continue }
      if component == ".." {
        if stack.isEmpty { return false }
        stack.removeLast()
        continue
      }
      stack.append(String(component))
      let path = stack.joined(separator: "/")
      var info = stat()
      guard fstatat(root, path, &info, AT_SYMLINK_NOFOLLOW) == 0,
        (info.st_mode & S_IFMT) == S_IFLNK
      else { continue }
      hops += 1
      guard hops <= maximumLinkHops,
        let next = try? readLink(folder: root, name: path, displayPath: path),
        !next.hasPrefix("/")
      else { return false }
      stack.removeLast()
      pending.append(
        contentsOf: next.split(separator: "/", omittingEmptySubsequences: true).reversed())
    }
    return true
  }
}
