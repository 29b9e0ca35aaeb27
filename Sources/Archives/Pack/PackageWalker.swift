import FolioSystem
import FoundationEssentials
import Glibc

/// Walks a package's tree in archive order: each folder before its
/// contents, names sorted by their UTF-8 bytes, never following symbolic links.
///
/// The walker goes through the tree itself with `openat`/`fstatat` relative
/// to folder descriptors, rather than through `archive_read_disk`. It keeps
/// only the names of the folders on the current path (each folder's in one
/// buffer, ``FolderNames``), so memory does not grow with the number of
/// entries; ``Packer`` walks twice, once to count (and refuse what cannot be
/// packed before anything is written) and once to write, or, updating an earlier
/// archive, once, handing the entries to the writer as it goes, which keeps them
/// (``walk(handingOffTo:)``).
struct PackageWalker {
  /// One entry met on the walk.
  struct Item {
    enum Kind {
      case directory
      case file(size: Int64)
      case symbolicLink(target: String)
      /// A further name of a file met earlier on this walk (same device and inode), and the
      /// ``Item/path`` of the first.
      case hardLink(firstPath: String, size: Int64)
    }

    /// The path below the package root, `/`-separated, under ``PackageWalker/topFolder``
    /// when one is set; for the root, empty or the top folder.
    var path: String
    var kind: Kind
    var info: stat
    /// How long the list of a file's or folder's extended attribute names is (0: none),
    /// when the walk asked (``listsAttributes``) and the kernel could tell.
    var attributeListLength: Int? = nil
  }

  /// What a counting walk found.
  struct Totals {
    /// Entries of every kind, the root included.
    var entries = 0
    /// Regular files, counting every name of a hard-linked file.
    var files = 0
    /// The bytes of every regular file, counting a hard-linked file once.
    var uniqueBytes: Int64 = 0
    /// The bytes of every regular file name, counting hard links in full.
    var allBytes: Int64 = 0

    /// Counts one entry.
    mutating func add(_ item: Item) {
      entries += 1
      switch item.kind {
      case .directory, .symbolicLink: break
      case .file(let size):
        files += 1
        uniqueBytes += size
        allBytes += size
      case .hardLink(_, let size):
        files += 1
        allBytes += size
      }
    }
  }

  /// An open descriptor of the package folder.
  let root: Int32
  /// The package's path, for messages.
  let rootPath: String
  /// Whether links leaving the package are kept rather than refused.
  let allowExternalSymlinks: Bool
  /// Which paths are packed; a folder left out is not walked.
  var selection: PathSelection = .everything
  /// Whether ``walk(_:)`` and ``walk(handingOffTo:)`` ask each file and folder whether it has
  /// extended attributes (``Item/attributeListLength``), right after its `fstatat`, while
  /// the kernel still holds the name it just looked up.
  var listsAttributes = false
  /// Whether ``walk(handingOffTo:)`` looks up a large folder's names on two threads at once
  /// (``FolderStats``).
  var looksUpInParallel = false
  /// The path the package folder itself is given, under which every other item's path is
  /// built: empty (paths relative to the package), or the archive's top folder when a pack
  /// keeps it, which spares joining it to every path afterwards.
  var topFolder = ""

  /// The most symbolic links followed while deciding where one link points.
  static let maximumLinkHops = 40

  /// Counts what a walk would meet, refusing what cannot be packed.
  ///
  /// - Returns: The totals.
  /// - Throws: ``PackagingError`` naming the path of a socket, device, FIFO,
  ///   external link, non-UTF-8 name or unreadable folder.
  func count() throws -> Totals {
    var totals = Totals()
    // In the order the folder lists, not sorted: the totals do not depend on it.
    try walk(ordered: false, listingAttributes: false, inParallel: false) { totals.add($0) }
    return totals
  }

  /// Visits every entry, the root first.
  ///
  /// - Parameter visit: Called for each entry in archive order.
  /// - Throws: ``PackagingError`` as ``count()`` does, or what `visit` throws.
  func walk(_ visit: (Item) throws -> Void) throws {
    try walk(ordered: true, listingAttributes: listsAttributes, inParallel: false, visit)
  }

  /// Where a file lives (device and inode), which all its hard links share; not
  /// FolioSystem's `FileIdentity`, which also holds size and times.
  private struct InodeKey: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  /// One folder being walked: its names, and how far through them the walk is.
  private struct Level {
    /// The folder, open (the root's descriptor is the caller's and is not closed here).
    var folder: Int32
    /// Its ``Item/path``.
    var path: String
    var names: FolderNames
    var next = 0
    /// Its names looked up ahead, for a large folder when asked.
    var stats: FolderStats?
  }

  /// Visits every entry, the root first: in archive order or as folders list them, asking
  /// for attribute lists and looking large folders up on two threads when told.
  func walk(
    ordered: Bool, listingAttributes: Bool, inParallel: Bool, _ visit: (Item) throws -> Void
  ) throws {
    /// A folder's level, its names looked up ahead when it is large and that is asked.
    func level(_ folder: Int32, _ path: String, _ names: FolderNames) -> Level {
      let ahead =
        inParallel && selection.isEverything && names.count >= FolderStats.parallelThreshold
      return Level(
        folder: folder, path: path, names: names,
        stats: ahead
          ? FolderStats(folder: folder, names: names, listingAttributes: listingAttributes)
          : nil)
    }
    var info = stat()
    guard fstat(root, &info) == 0 else {
      throw PackagingError.system("cannot read the attributes of '\(rootPath)'", errno: errno)
    }
    try visit(Item(path: topFolder, kind: .directory, info: info))
    var firstNames: [InodeKey: String] = [:]
    // The folders on the current path, the package first. A loop rather than a recursion:
    // a tree thousands of folders deep would overflow the thread's stack, which no error
    // message survives; here a level costs its names and one descriptor.
    var levels = [
      level(root, topFolder, try Self.names(folder: root, sorted: ordered, displayPath: rootPath))
    ]
    defer {
      // A walk that stops early leaves a helper asking in its folder: it ends first.
      for level in levels.dropFirst() {
        level.stats?.waitForHelper()
        close(level.folder)
      }
    }
    while let last = levels.indices.last {
      let index = levels[last].next
      guard index < levels[last].names.count else {
        if last > 0 {
          levels[last].stats?.waitForHelper()
          close(levels[last].folder)
        }
        levels.removeLast()
        continue
      }
      levels[last].next = index + 1
      let (folder, folderPath, names, stats) = (
        levels[last].folder, levels[last].path, levels[last].names, levels[last].stats
      )
      // The name's pointers point into `names`: kept alive to the end of this entry.
      defer { withExtendedLifetime(names) {} }
      let (name, cName) = names[index]
      let childPath = Self.childPath(folderPath, name)
      if !selection.isEverything && !selection.selects(packagePath: packagePath(of: childPath)) {
        continue
      }
      // Spelled only for a message: most entries never need it.
      var displayPath: String { Self.join(rootPath, packagePath(of: childPath)) }
      var info = stat()
      let answer = stats?[index]
      if let answer {
        guard answer.errorNumber == 0 else {
          throw PackagingError.system(
            "cannot read the attributes of '\(displayPath)'", errno: answer.errorNumber)
        }
        info = answer.info
      } else {
        guard fstatat(folder, cName, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
          let code = errno
          throw PackagingError.system("cannot read the attributes of '\(displayPath)'", errno: code)
        }
      }
      func attributeListLength() -> Int? {
        if let answer { return answer.attributeListLength }
        return listingAttributes ? ExtendedAttributes.listLength(in: folder, name: cName) : nil
      }
      switch info.st_mode & S_IFMT {
      case S_IFDIR:
        try visit(
          Item(
            path: childPath, kind: .directory, info: info,
            attributeListLength: attributeListLength()))
        let child = openat(folder, cName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0 else {
          throw PackagingError.system("cannot open folder '\(displayPath)'", errno: errno)
        }
        let childNames: FolderNames
        do {
          childNames = try Self.names(folder: child, sorted: ordered, displayPath: displayPath)
        } catch {
          close(child)
          throw error
        }
        levels.append(level(child, childPath, childNames))
      case S_IFREG:
        let size = Int64(info.st_size)
        if info.st_nlink > 1 {
          let identity = InodeKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
          if let first = firstNames[identity] {
            try visit(
              Item(
                path: childPath, kind: .hardLink(firstPath: first, size: size),
                info: info))
            continue
          }
          firstNames[identity] = childPath
        }
        try visit(
          Item(
            path: childPath, kind: .file(size: size), info: info,
            attributeListLength: attributeListLength()))
      case S_IFLNK:
        let target = try Self.readLink(folder: folder, name: cName, displayPath: displayPath)
        if !allowExternalSymlinks {
          let parent = packagePath(of: folderPath).split(separator: "/").map(String.init)
          if !Self.staysInside(root: root, linkFolder: parent, target: target) {
            throw PackagingError(
              .externalSymlink,
              "symbolic link '\(displayPath)' points outside the package (to '\(target)')")
          }
        }
        try visit(Item(path: childPath, kind: .symbolicLink(target: target), info: info))
      default:
        throw PackagingError(
          .unsupportedFileType,
          "'\(displayPath)' is \(Self.describe(info.st_mode)): "
            + "sockets, devices and FIFOs cannot be packed")
      }
    }
  }

  /// An item's path below the package root, without the ``topFolder``.
  ///
  /// - Parameter path: An ``Item/path`` of this walk.
  /// - Returns: The path relative to the package; empty for the root.
  func packagePath(of path: String) -> String {
    Self.packagePath(of: path, under: topFolder)
  }

  /// A path below the package root, without a walk's top folder.
  ///
  /// - Parameters:
  ///   - path: An ``Item/path`` of a walk.
  ///   - topFolder: That walk's ``topFolder``.
  /// - Returns: The path relative to the package; empty for the root.
  static func packagePath(of path: String, under topFolder: String) -> String {
    guard !topFolder.isEmpty else { return path }
    guard path.utf8.count > topFolder.utf8.count else { return "" }
    return String(decoding: path.utf8.dropFirst(topFolder.utf8.count + 1), as: UTF8.self)
  }

  /// A path below a folder: the folder's path, a `/`, the relative path (the folder's own
  /// path when that is empty), built in one allocation.
  ///
  /// - Parameters:
  ///   - root: The folder's path.
  ///   - relative: A path below it, `/`-separated.
  /// - Returns: The joined path.
  static func join(_ root: String, _ relative: String) -> String {
    guard !relative.isEmpty else { return root }
    guard !root.isEmpty else { return relative }
    // Appended as strings, which are known to be UTF-8: built from bytes, they were
    // checked again, at every entry of a pack that keeps its folder.
    var path = root
    path.reserveCapacity(root.utf8.count + 1 + relative.utf8.count)
    path.append("/")
    path.append(relative)
    return path
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

  /// A folder's names, sorted by their UTF-8 bytes when asked.
  private static func names(
    folder: Int32, sorted: Bool, displayPath: @autoclosure () -> String
  ) throws -> FolderNames {
    do {
      return try FolderNames(folder: folder, sorted: sorted)
    } catch let invalid as FolderNames.InvalidName {
      throw PackagingError(
        .invalidEntry,
        "the name \(EntryName(bytes: invalid.bytes).display) in '\(displayPath())' is not valid UTF-8; archives store UTF-8 names"
      )
    } catch let error as SystemError {
      throw PackagingError.system("cannot list folder '\(displayPath())'", errno: error.errno)
    }
  }

  /// A child's path below the package root: its folder's path, a `/`, its name (valid
  /// UTF-8, checked by the listing), built in one allocation.
  private static func childPath(_ folder: String, _ name: UnsafeBufferPointer<UInt8>) -> String {
    guard !folder.isEmpty else { return String(decoding: name, as: UTF8.self) }
    var folder = folder
    let count = folder.utf8.count + 1 + name.count
    return String(unsafeUninitializedCapacity: count) { buffer in
      var end = folder.withUTF8 { prefix in
        buffer.baseAddress!.update(from: prefix.baseAddress!, count: prefix.count)
        return prefix.count
      }
      buffer[end] = UInt8(ascii: "/")
      end += 1
      if let source = name.baseAddress {
        (buffer.baseAddress! + end).update(from: source, count: name.count)
      }
      return end + name.count
    }
  }

  private static func readLink(
    folder: Int32, name: UnsafePointer<CChar>, displayPath: String
  ) throws -> String {
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
        let next = path.withCString({ try? readLink(folder: root, name: $0, displayPath: path) }),
        !next.hasPrefix("/")
      else { return false }
      stack.removeLast()
      pending.append(
        contentsOf: next.split(separator: "/", omittingEmptySubsequences: true).reversed())
    }
    return true
  }
}
