import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import Archives

/// A durable expansion's flush: once for the file system when the machine holds little
/// else unwritten, each file and folder otherwise, and the same tree either way.
@Suite struct FileFlusherTests {
  /// What the flusher reads as the machine's unwritten data: each answer in turn, the last
  /// one from then on.
  static func readings(_ answers: [Int64]) -> @Sendable () -> Int64? {
    let calls = Atomic<Int>(0)
    return {
      let call = calls.add(1, ordering: .relaxed).oldValue
      return answers[min(call, answers.count - 1)]
    }
  }

  static let lots: Int64 = 1 << 40

  /// Stages `pages/a.txt`, `pages/b.txt`, `top.txt` and `locked.txt` (mode 000, which its
  /// owner cannot open again), in the folder `pages`, prepares and moves the tree into
  /// place; returns the flusher's count after the preparation.
  static func stageAndCommit(
    in folder: URL, flusher: FileFlusher
  ) throws -> (flushed: Int, destination: URL) {
    let destination = folder.appendingPathComponent("out")
    let staging = try StagingFolder(for: destination, flusher: flusher)
    try staging.makeDirectory(
      RelativePath(components: ["pages"]), permissions: 0o755, time: nil)
    let files: [([String], String, UInt32)] = [
      (["pages", "a.txt"], "alpha", 0o644), (["pages", "b.txt"], "beta", 0o600),
      (["top.txt"], "top", 0o644), (["locked.txt"], "locked", 0o000),
    ]
    for (components, text, mode) in files {
      let file = try staging.createFile(RelativePath(components: components))
      try Array(text.utf8).withUnsafeBytes { try file.write($0, at: 0) }
      try file.finish(permissions: mode, time: nil)
    }
    let source = try staging.prepare(top: nil)
    let flushed = flusher.flushedOneByOne
    try staging.commit(source, .fresh, topPermissions: nil)
    return (flushed, destination)
  }

  static func expectTree(_ destination: URL) throws {
    #expect(
      try String(contentsOf: destination.appendingPathComponent("pages/a.txt"), encoding: .utf8)
        == "alpha")
    #expect(
      try String(contentsOf: destination.appendingPathComponent("pages/b.txt"), encoding: .utf8)
        == "beta")
    #expect(
      try String(contentsOf: destination.appendingPathComponent("top.txt"), encoding: .utf8)
        == "top")
    let locked = try FileManager.default.attributesOfItem(
      atPath: destination.appendingPathComponent("locked.txt").path)
    #expect((locked[.posixPermissions] as? Int) == 0)
    #expect((locked[.size] as? Int) == 6)
  }

  @Test func theFileSystemIsFlushedOnceWhenLittleElseIsUnwritten() async throws {
    try await withTemporaryDirectory("flush-once") { folder in
      let flusher = FileFlusher(unwrittenBytes: Self.readings([0, 5 << 20]))
      #expect(flusher.way == .atTheEnd)
      let (flushed, destination) = try Self.stageAndCommit(in: folder, flusher: flusher)
      #expect(flusher.settlement == .fileSystem)
      // Only the file its owner cannot open again was flushed on its own.
      #expect(flushed == 1)
      try Self.expectTree(destination)
    }
  }

  @Test func eachFileIsFlushedWhenOtherDataGrewDuringTheExpansion() async throws {
    try await withTemporaryDirectory("flush-walk") { folder in
      let flusher = FileFlusher(unwrittenBytes: Self.readings([0, Self.lots]))
      #expect(flusher.way == .atTheEnd)
      let (flushed, destination) = try Self.stageAndCommit(in: folder, flusher: flusher)
      #expect(flusher.settlement == .eachFile)
      // The locked file when written; the three others found by the walk; `pages`; the root.
      #expect(flushed == 6)
      try Self.expectTree(destination)
    }
  }

  @Test func eachFileIsFlushedAsWrittenWhenOtherDataIsUnwrittenAtTheStart() async throws {
    try await withTemporaryDirectory("flush-each") { folder in
      let flusher = FileFlusher(unwrittenBytes: Self.readings([Self.lots, 0]))
      #expect(flusher.way == .eachFile)
      let (flushed, destination) = try Self.stageAndCommit(in: folder, flusher: flusher)
      #expect(flusher.settlement == nil)
      #expect(flushed == 6)
      try Self.expectTree(destination)
    }
  }

  @Test func anUnknownAmountOfUnwrittenDataFlushesEachFile() {
    let flusher = FileFlusher(unwrittenBytes: { nil })
    #expect(flusher.way == .eachFile)
  }

  @Test func theExpansionsOwnDataDoesNotCountAsOthers() async throws {
    try await withTemporaryDirectory("flush-own") { folder in
      // 60 MiB unwritten at the end, of which the expansion wrote 18 bytes: 60 MiB of
      // other data is within the limit; one byte past the limit is not.
      for (unwritten, settlement) in [
        (FileFlusher.otherDataLimit + 18, FileFlusher.Settlement.fileSystem),
        (FileFlusher.otherDataLimit + 19, .eachFile),
      ] {
        let run = folder.appendingPathComponent("\(unwritten)")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: false)
        let flusher = FileFlusher(unwrittenBytes: Self.readings([0, unwritten]))
        _ = try Self.stageAndCommit(in: run, flusher: flusher)
        #expect(flusher.settlement == settlement, "\(unwritten)")
      }
    }
  }
}
