import Foundation

/// Small, deterministic notebook packages for fault, kill and concurrency runs.
///
/// Each variant has the same layout and differing contents, so a test can tell which
/// input a result came from: `metadata.json`, pages, an incompressible attachment large
/// enough to take several 64 KiB writes, an executable script, an empty folder and a
/// symlink, all with fixed modification times.
enum NotebookFixture {
  /// The modification time every entry gets (2023-11-14).
  static let modified: time_t = 1_700_000_000

  /// Writes variant `variant` of the notebook at `url` (which must not exist).
  ///
  /// - Parameters:
  ///   - url: Where the package goes, such as `…/Fault.examplenotebook`.
  ///   - variant: Which contents; variants differ in pages, attachment and metadata.
  ///   - pages: How many pages.
  ///   - attachmentBytes: The attachment's size.
  /// - Returns: `url`.
  /// - Throws: When a file cannot be written.
  @discardableResult
  static func make(
    at url: URL, variant: Int = 0, pages: Int = 6, attachmentBytes: Int = 320 * 1024
  ) throws -> URL {
    let files = FileManager.default
    let pagesFolder = url.appendingPathComponent("pages")
    try files.createDirectory(at: pagesFolder, withIntermediateDirectories: true)
    try files.createDirectory(
      at: url.appendingPathComponent("empty/inner"), withIntermediateDirectories: true)
    try files.createDirectory(
      at: url.appendingPathComponent("scripts"), withIntermediateDirectories: true)

    var ids: [String] = []
    for index in 0..<pages {
      let id = String(format: "%08X-0000-4000-8000-%012X", index, index)
      ids.append(id)
      // Odd pages are the same in every variant, so an update has files to keep.
      let edition = index % 2 == 0 ? variant : 0
      let body = (0...(index % 3 + 2)).map {
        "Page \(index + 1), edition \(edition), line \($0): the quick brown fox, ünïcödé 文稿."
      }.joined(separator: "\n")
      try write(Data(body.utf8), to: pagesFolder.appendingPathComponent("\(id).txt"))
    }
    let metadata = """
      {"title": "Fault notebook \(variant)", "pageOrder": [\(ids.map { "\"\($0)\"" }.joined(separator: ", "))]}
      """
    try write(Data(metadata.utf8), to: url.appendingPathComponent("metadata.json"))
    try write(
      attachment(bytes: attachmentBytes, seed: UInt64(variant + 1)),
      to: url.appendingPathComponent("attachment.bin"))
    try write(
      Data("#!/bin/sh\necho variant \(variant)\n".utf8),
      to: url.appendingPathComponent("scripts/run.sh"), mode: 0o755)
    if variant % 2 == 1 {
      // Only in odd variants: an update to an even one must remove it.
      try write(Data("draft \(variant)\n".utf8), to: url.appendingPathComponent("draft.txt"))
    }
    try files.createSymbolicLink(
      atPath: url.appendingPathComponent("latest.txt").path,
      withDestinationPath: "pages/\(ids[0]).txt")

    for folder in ["empty/inner", "empty", "scripts", "pages", ""] {
      touch(url.appendingPathComponent(folder).path)
    }
    touch(url.appendingPathComponent("latest.txt").path)
    return url
  }

  /// Pseudo-random (incompressible) bytes from a seed.
  static func attachment(bytes: Int, seed: UInt64) -> Data {
    var state = seed &* 0x9E37_79B9_7F4A_7C15
    var data = Data(count: bytes)
    data.withUnsafeMutableBytes { buffer in
      for index in 0..<buffer.count {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        buffer[index] = UInt8(truncatingIfNeeded: state)
      }
    }
    return data
  }

  private static func write(_ data: Data, to url: URL, mode: mode_t = 0o644) throws {
    try data.write(to: url)
    chmod(url.path, mode)
    touch(url.path)
  }

  private static func touch(_ path: String) {
    let time = timespec(tv_sec: modified, tv_nsec: 0)
    var times = [time, time]
    utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW)
  }
}
