import Foundation

/// Small trees built inside a test's folder.
enum PackTestTrees {
  /// Writes files (path → contents) under a new folder, creating parents.
  @discardableResult
  static func make(_ root: URL, files: [String: Data], mtime: Int = 1_700_000_000) throws -> URL {
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    for (path, contents) in files {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try contents.write(to: url)
    }
    try setTimes(root, mtime: mtime)
    return root
  }

  /// Writes a package with what archivers must carry beside file contents: modes, empty
  /// folders and symbolic links, every time set to `mtime` afterwards.
  ///
  /// - Parameters:
  ///   - root: The package folder to create.
  ///   - files: Path → contents.
  ///   - modes: Path → permission bits, for files that do not keep the default.
  ///   - emptyFolders: Folders created empty (with their parents).
  ///   - links: Link path → target, as stored.
  ///   - mtime: The time every entry gets.
  /// - Returns: `root`.
  static func make(
    _ root: URL, files: [String: Data], modes: [String: mode_t], emptyFolders: [String] = [],
    links: [String: String] = [:], mtime: Int = 1_700_000_000
  ) throws -> URL {
    try make(root, files: files, mtime: mtime)
    for (path, mode) in modes {
      guard chmod(root.appendingPathComponent(path).path, mode) == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
      }
    }
    for folder in emptyFolders {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    for (link, target) in links {
      try FileManager.default.createSymbolicLink(
        atPath: root.appendingPathComponent(link).path, withDestinationPath: target)
    }
    try setTimes(root, mtime: mtime)
    return root
  }

  /// Sets every entry's modification time (without following links).
  static func setTimes(_ root: URL, mtime: Int) throws {
    var times = [
      timespec(tv_sec: mtime, tv_nsec: 0), timespec(tv_sec: mtime, tv_nsec: 0),
    ]
    let walker = FileManager.default.enumerator(atPath: root.path)
    while let relative = walker?.nextObject() as? String {
      utimensat(AT_FDCWD, root.appendingPathComponent(relative).path, &times, AT_SYMLINK_NOFOLLOW)
    }
    utimensat(AT_FDCWD, root.path, &times, AT_SYMLINK_NOFOLLOW)
  }

  /// Random bytes from a seeded generator, so runs repeat.
  static func randomBytes(_ count: Int, seed: UInt64) -> Data {
    var state = seed
    var bytes = [UInt8](repeating: 0, count: count)
    for index in 0..<count {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
    }
    return Data(bytes)
  }

  /// Text that deflates well.
  static func text(_ count: Int) -> Data {
    let words = "the archive of a package keeps every page and its metadata in order "
    var text = ""
    while text.utf8.count < count { text += words }
    return Data(text.utf8.prefix(count))
  }

  /// The names of leftover Folio temporaries in a folder.
  static func temporaries(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
      .filter { $0.contains(".folio-tmp-") }
  }
}
