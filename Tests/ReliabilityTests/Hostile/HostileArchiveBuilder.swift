import FolioTestSupport
import Foundation

/// Builds hostile (and unusual but valid) archives with the generator the expansion's unit
/// tests use, `Tests/ArchivesTests/Fixtures/hostile_archives.py`: every case is written at
/// test time, byte by byte or with Python's own zipfile, tarfile, gzip, lzma and bz2 (and
/// `7z`, `zstd` where a case needs them), so no held-out file is needed.
enum HostileArchiveBuilder {
  static let script = ProjectPaths.root.appendingPathComponent(
    "Tests/ArchivesTests/Fixtures/hostile_archives.py")

  /// Writes one case.
  ///
  /// - Parameters:
  ///   - name: The case, such as `zip-end-count-too-low`.
  ///   - archive: Where to write it.
  ///   - outside: A path outside the destination that absolute names point at.
  /// - Throws: When the generator fails.
  static func build(_ name: String, at archive: URL, outside: URL) throws {
    let result = try runProcess("python3", [script.path, name, archive.path, outside.path])
    guard result.status == 0 else {
      throw ShimFailure("hostile_archives.py \(name): \(result.errorText)")
    }
  }
}

/// The checks every hostile expansion must pass, run on a sandbox folder: the archive,
/// a folder `outside/` beside the destination, and the destination itself.
struct HostileSandbox {
  let folder: URL
  let archive: URL
  let outside: URL
  let destination: URL

  init(_ folder: URL, archiveName: String = "archive.data") throws {
    self.folder = folder
    archive = folder.appendingPathComponent(archiveName)
    outside = folder.appendingPathComponent("outside")
    destination = folder.appendingPathComponent("dest")
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: false)
    try Data("outside".utf8).write(to: outside.appendingPathComponent("keep.txt"))
  }

  /// Everything in the sandbox a run could change, lock files and the folder's own time
  /// aside (the expansion works beside its destination).
  func snapshot() -> [String: TreeSnapshot.Entry] {
    TreeSnapshot.take(folder).entries.filter { path, _ in
      !path.isEmpty && !path.hasSuffix(".folio-lock")
    }
  }

  /// Symbolic links under the destination that resolve outside it (through any number of
  /// links), as the file system resolves them.
  func linksLeavingDestination() -> [String] {
    let root = destination.resolvingSymlinksInPath().path
    var leaving: [String] = []
    let walker = FileManager.default.enumerator(atPath: destination.path)
    while let relative = walker?.nextObject() as? String {
      let path = destination.appendingPathComponent(relative).path
      var info = stat()
      guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { continue }
      let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? ""
      let joined =
        target.hasPrefix("/")
        ? target : (path as NSString).deletingLastPathComponent + "/" + target
      var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let real: String
      if realpath(joined, &resolved) != nil {
        real = String(
          decoding: resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      } else {
        real = (joined as NSString).standardizingPath  // dangling: judged lexically
      }
      if real != root && !real.hasPrefix(root + "/") { leaving.append("\(relative) -> \(target)") }
    }
    return leaving
  }
}
