import FolioTestSupport
import Foundation
import Glibc
import Testing

@testable import Archives

/// ``ArchiveFile/copyBytes(at:count:to:targetOffset:targetName:)``: the reused entries'
/// bytes, copied file to file.
@Suite struct ArchiveFileTests {
  @Test func copiedBytesLandAtTheTargetsEndAndStopAtTheSourcesEnd() async throws {
    try await withTemporaryDirectory("archive-file-copy") { folder in
      let bytes = PackTestTrees.randomBytes(3 << 20, seed: 5)
      let sourceURL = folder.appendingPathComponent("source.bin")
      try bytes.write(to: sourceURL)
      let source = try ArchiveFile(path: sourceURL.path)
      let targetURL = folder.appendingPathComponent("target.bin")
      try Data("head".utf8).write(to: targetURL)
      let target = open(targetURL.path, O_WRONLY | O_APPEND)
      try #require(target >= 0)
      defer { close(target) }

      let copied = try source.copyBytes(
        at: 1_000, count: 2 << 20, to: target, targetName: targetURL.path)
      #expect(copied == 2 << 20)
      // Asked past the end: what there is.
      let rest = try source.copyBytes(
        at: Int64(bytes.count) - 10, count: 100, to: target, targetName: targetURL.path)
      #expect(rest == 10)

      let written = try Data(contentsOf: targetURL)
      #expect(written == Data("head".utf8) + bytes[1_000..<(1_000 + (2 << 20))] + bytes.suffix(10))
    }
  }

  /// At an offset, in the kernel or (on another file system) through the buffer, the copy
  /// leaves the target's file position where it was: `pack --update` copies on a thread of
  /// its own while the writing thread writes past the copy's place.
  @Test(arguments: ["same file system", "tmpfs"])
  func bytesCopiedAtAnOffsetLeaveTheTargetsPosition(_ place: String) async throws {
    try await withTemporaryDirectory("archive-file-copy-at") { folder in
      let bytes = PackTestTrees.randomBytes(300_000, seed: 6)
      let sourceURL = folder.appendingPathComponent("source.bin")
      try bytes.write(to: sourceURL)
      let source = try ArchiveFile(path: sourceURL.path)
      let targetFolder =
        place == "tmpfs" ? URL(fileURLWithPath: "/dev/shm") : folder
      let targetURL = targetFolder.appendingPathComponent("target-\(UUID().uuidString).bin")
      defer { unlink(targetURL.path) }
      let target = open(targetURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      try #require(target >= 0)
      defer { close(target) }

      let copied = try source.copyBytes(
        at: 1_000, count: 200_000, to: target, targetOffset: 10, targetName: targetURL.path)
      #expect(copied == 200_000)
      #expect(write(target, "head!", 5) == 5)  // at the position, still 0

      let written = try Data(contentsOf: targetURL)
      #expect(written.count == 200_010)
      #expect(written.prefix(10) == Data("head!".utf8) + Data(repeating: 0, count: 5))
      #expect(written.dropFirst(10) == bytes[1_000..<201_000])
    }
  }

  @Test func aTargetThatCannotBeWrittenFailsNamingBothFiles() async throws {
    try await withTemporaryDirectory("archive-file-copy-fails") { folder in
      let sourceURL = folder.appendingPathComponent("source.bin")
      try Data(repeating: 7, count: 4096).write(to: sourceURL)
      let source = try ArchiveFile(path: sourceURL.path)
      let readOnly = open(sourceURL.path, O_RDONLY)
      try #require(readOnly >= 0)
      defer { close(readOnly) }
      let error = try #require(throws: PackagingError.self) {
        try source.copyBytes(at: 0, count: 4096, to: readOnly, targetName: "out.zip")
      }
      #expect(error.code == .fileSystem)
      #expect(error.message.contains("'\(sourceURL.path)'"), "\(error.message)")
      #expect(error.message.contains("'out.zip'"), "\(error.message)")
    }
  }

  /// A file about to be replaced lets go of the pages it copied, and only those.
  ///
  /// `pack --update` in place copies from it: the kernel would otherwise drop them all when
  /// the file is deleted, at the end of the run. Another file keeps them cached.
  @Test(
    .enabled(
      if: ArchiveFileTests.temporaryFolderKeepsPagesInTheCache,
      "the temporary folder is on tmpfs, whose pages are the file: none can be dropped"),
    arguments: [true, false])
  func aReplacedFileLetsGoOfTheCachedPagesItCopied(_ forgets: Bool) async throws {
    try await withTemporaryDirectory("archive-file-forget") { folder in
      // Whole megabytes: the kernel caches a file in folios of up to 2 MiB, dropped whole.
      let megabyte = 1 << 20
      let pagesPerMegabyte = megabyte / Int(sysconf(Int32(_SC_PAGESIZE)))
      let bytes = PackTestTrees.randomBytes(8 * megabyte, seed: 7)
      let sourceURL = folder.appendingPathComponent("earlier.zip")
      try bytes.write(to: sourceURL)
      // Written back first: only clean pages can be dropped; then read, so all are cached.
      let descriptor = open(sourceURL.path, O_RDONLY)
      try #require(descriptor >= 0)
      defer { close(descriptor) }
      #expect(fsync(descriptor) == 0)
      _ = try Data(contentsOf: sourceURL)
      #expect(try Self.residentPages(descriptor, bytes: 8 * megabyte).allSatisfy { $0 })

      let source = try ArchiveFile(path: sourceURL.path, forgetsCopiedBytes: forgets)
      let target = open(folder.appendingPathComponent("new.zip").path, O_WRONLY | O_CREAT, 0o644)
      try #require(target >= 0)
      defer { close(target) }
      let copied = try source.copyBytes(
        at: Int64(2 * megabyte), count: Int64(4 * megabyte), to: target, targetName: "new.zip")
      #expect(copied == Int64(4 * megabyte))

      let resident = try Self.residentPages(descriptor, bytes: 8 * megabyte)
      let copiedPages = (2 * pagesPerMegabyte)..<(6 * pagesPerMegabyte)
      #expect(resident[..<copiedPages.lowerBound].allSatisfy { $0 })
      #expect(resident[copiedPages.upperBound...].allSatisfy { $0 })
      #expect(resident[copiedPages].allSatisfy { $0 != forgets })
    }
  }

  /// Whether each page of a file's first `length` bytes is in the page cache (`mincore`).
  private static func residentPages(_ descriptor: Int32, bytes length: Int) throws -> [Bool] {
    let count = length / Int(sysconf(Int32(_SC_PAGESIZE)))
    let mapping = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0)
    try #require(mapping != MAP_FAILED)
    defer { munmap(mapping, length) }
    var vector = [UInt8](repeating: 0, count: count)
    try #require(mincore(mapping, length, &vector) == 0)
    return vector.map { $0 & 1 != 0 }
  }

  /// Whether the system's temporary folder is on a file system that caches pages apart from
  /// the file (not tmpfs).
  static var temporaryFolderKeepsPagesInTheCache: Bool {
    let folder = FileManager.default.temporaryDirectory.resolvingSymlinksInPath().path
    guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else {
      return false
    }
    // The mount holding the folder: the longest mount point it lies under.
    var holding: (point: String, type: String)?
    for line in mounts.split(separator: "\n") {
      let fields = line.split(separator: " ").map(String.init)
      guard fields.count > 2 else { continue }
      let point = fields[1]
      let under = folder == point || folder.hasPrefix(point.hasSuffix("/") ? point : point + "/")
      if under, point.count >= (holding?.point.count ?? -1) { holding = (point, fields[2]) }
    }
    guard let holding else { return false }
    return holding.type != "tmpfs" && holding.type != "ramfs"
  }
}
