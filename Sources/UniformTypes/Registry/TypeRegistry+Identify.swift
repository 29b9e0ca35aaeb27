#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension TypeRegistry {
  /// The type of a file-system item, from its kind and name alone.
  ///
  /// The rules, in order:
  /// - a symbolic link is `public.symlink` (it is not followed);
  /// - a directory whose extension maps to a type conforming to
  ///   `com.apple.package` is that package type; any other directory is
  ///   `public.folder`;
  /// - a file is typed by its name: first by the extensions of the types loaded from
  ///   declaration files (the longest multi-part extension first), then by the system
  ///   types' extensions and the shared MIME database's globs together, as the
  ///   shared-mime-info specification matches globs (literal names first, then the
  ///   highest weight, then the longest pattern, so `a.tar.gz` is a gzip-compressed tar
  ///   before it is gzip); an unknown extension gets a stable dynamic type conforming
  ///   to `public.data`, and a file without an extension is `public.data`;
  /// - pipes, sockets and devices get their `public.` item types.
  ///
  /// A leading dot starts a hidden name, not an extension (`.profile` has none).
  ///
  /// - Parameters:
  ///   - fileName: The item's last path component.
  ///   - kind: What the item is.
  /// - Returns: Its type; never `nil`, so every item has a type.
  public func identify(fileName: String, kind: FileSystemItemKind) -> UTType {
    UTType(resolved: identifier(forFileNamed: fileName, kind: kind))
  }

  /// The identifier of a file-system item's type, by the rules of ``identify(fileName:kind:)``.
  package func identifier(forFileNamed fileName: String, kind: FileSystemItemKind) -> TypeIdentifier
  {
    decision(forFileNamed: fileName, kind: kind, prefix: nil).identifier
  }

  /// The type of the item at a path, looked at with `lstat` (links are not followed), by name.
  ///
  /// When the path cannot be examined (it does not exist, or permission is
  /// denied), it is typed by name as a regular file.
  ///
  /// - Parameter path: An absolute or relative path; a trailing `/` is ignored.
  /// - Returns: Its type, by the rules of ``identify(fileName:kind:)``.
  public func identify(path: String) -> UTType {
    UTType(resolved: identifier(forPath: path))
  }

  /// The identifier of the type of the item at a path, by the rules of ``identify(path:)``.
  package func identifier(forPath path: String) -> TypeIdentifier {
    identifier(
      forFileNamed: Self.lastComponent(of: path), kind: Self.itemKind(atPath: path) ?? .regularFile)
  }

  /// What kind of item is at a path, without following a final symbolic link.
  ///
  /// - Parameter path: The path.
  /// - Returns: The kind, or `nil` when `lstat` fails.
  public static func itemKind(atPath path: String) -> FileSystemItemKind? {
    var info = stat()
    let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    guard lstat(trimmed, &info) == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: return .directory
    case S_IFLNK: return .symbolicLink
    case S_IFIFO: return .namedPipe
    case S_IFSOCK: return .socket
    case S_IFCHR: return .characterDevice
    case S_IFBLK: return .blockDevice
    default: return .regularFile
    }
  }

  /// The last non-empty component of a path.
  static func lastComponent(of path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  /// The possible extensions of a name, longest first: `a.tar.gz` → `tar.gz`, `gz`.
  ///
  /// Leading dots belong to the name (`.bashrc` has no extension), and an
  /// empty extension (`name.`) is none.
  static func extensionSuffixes(of name: String) -> [String] {
    let bytes = Array(name.utf8)
    var start = 0
    while start < bytes.count && bytes[start] == UInt8(ascii: ".") { start += 1 }
    var suffixes: [String] = []
    var index = start
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "."), index > start, index + 1 < bytes.count {
        suffixes.append(String(decoding: bytes[(index + 1)...], as: UTF8.self))
      }
      index += 1
    }
    return suffixes
  }

  /// How many leading bytes of a leading dot run a name has (`..x` has 2).
  static func leadingDots(of name: String) -> Int {
    var count = 0
    for byte in name.utf8 {
      guard byte == UInt8(ascii: ".") else { break }
      count += 1
    }
    return count
  }
}
