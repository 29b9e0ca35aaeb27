import FolioTestSupport
import Foundation
import Testing

@testable import FolioSystem

@Suite struct AtomicFileTests {
  /// Every name in a folder, hidden ones included (the temporaries are hidden).
  private func names(in folder: URL) throws -> [String] {
    try FolderListing.names(atPath: folder.path).sorted()
  }

  private func mode(of url: URL) -> mode_t {
    var info = stat()
    _ = stat(url.path, &info)
    return info.st_mode & 0o7777
  }

  @Test func writesANewFileAndLeavesNothingElse() async throws {
    try await withTemporaryDirectory("atomic-new") { folder in
      let target = folder.appendingPathComponent("out.plist")
      try AtomicFile.write(Array("hello".utf8), to: target.path)
      #expect(try String(contentsOf: target, encoding: .utf8) == "hello")
      #expect(try names(in: folder) == ["out.plist"])
      #expect(mode(of: target) & 0o600 == 0o600)
    }
  }

  @Test func replacingKeepsTheOldFilesPermissions() async throws {
    try await withTemporaryDirectory("atomic-mode") { folder in
      let target = folder.appendingPathComponent("script.sh")
      try Data("old".utf8).write(to: target)
      chmod(target.path, 0o750)
      try AtomicFile.write(Array("new".utf8), to: target.path)
      #expect(try String(contentsOf: target, encoding: .utf8) == "new")
      #expect(mode(of: target) == 0o750)
    }
  }

  @Test func aFailedWriteLeavesTheTargetAndNoTemporary() async throws {
    try await withTemporaryDirectory("atomic-fail") { folder in
      let target = folder.appendingPathComponent("keep.txt")
      try Data("precious".utf8).write(to: target)
      let file = try AtomicFile(target: target.path)
      try Array("half a new".utf8).withUnsafeBytes { try file.write($0) }
      // The write fails midway, as on a lost disk: the descriptor's number now names
      // /dev/null opened for reading. (Closing it instead let a test running beside this
      // one open a file under the same number, which the failed write then wrote into
      // and `discard()` closed.)
      let readOnly = open("/dev/null", O_RDONLY | O_CLOEXEC)
      try #require(readOnly >= 0 && dup2(readOnly, file.descriptor) == file.descriptor)
      close(readOnly)
      let failed = #expect(throws: AtomicFile.Failure.self) {
        try Array("rest".utf8).withUnsafeBytes { try file.write($0) }
      }
      #expect(failed?.step == .write)
      #expect(failed?.cause == SystemError(errno: EBADF))
      file.discard()
      #expect(try String(contentsOf: target, encoding: .utf8) == "precious")
      #expect(try names(in: folder) == ["keep.txt"])
    }
  }

  @Test func anUncommittedWriterRemovesItsTemporaryWhenItGoesAway() async throws {
    try await withTemporaryDirectory("atomic-drop") { folder in
      let target = folder.appendingPathComponent("never.txt")
      do {
        let file = try AtomicFile(target: target.path)
        try Array("draft".utf8).withUnsafeBytes { try file.write($0) }
        #expect(try names(in: folder).count == 1)
        #expect(try names(in: folder).first?.hasPrefix(".never.txt.folio-tmp-\(getpid())-") == true)
      }
      #expect(try names(in: folder) == [])
    }
  }

  @Test func withoutReplacingAnExistingTargetIsKept() async throws {
    try await withTemporaryDirectory("atomic-exists") { folder in
      let target = folder.appendingPathComponent("there.txt")
      try Data("first".utf8).write(to: target)
      let failed = #expect(throws: AtomicFile.Failure.self) {
        try AtomicFile.write(Array("second".utf8), to: target.path, replacing: false)
      }
      #expect(failed?.step == .targetExists)
      #expect(try String(contentsOf: target, encoding: .utf8) == "first")
      #expect(try names(in: folder) == ["there.txt"])
    }
  }

  @Test func aFolderIsNeverReplacedByAFile() async throws {
    try await withTemporaryDirectory("atomic-folder") { folder in
      let target = folder.appendingPathComponent("Notes.examplenotebook")
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
      let failed = #expect(throws: AtomicFile.Failure.self) {
        try AtomicFile.write(Array("x".utf8), to: target.path)
      }
      #expect(failed?.step == .targetIsFolder)
      #expect(FileTree.isFolder(target.path))
    }
  }

  @Test func aMissingFolderFailsAtCreation() async throws {
    try await withTemporaryDirectory("atomic-nofolder") { folder in
      let target = folder.appendingPathComponent("missing/out.txt")
      let failed = #expect(throws: AtomicFile.Failure.self) {
        try AtomicFile.write(Array("x".utf8), to: target.path)
      }
      #expect(failed?.step == .create)
      #expect(failed?.cause == SystemError(errno: ENOENT))
    }
  }

  @Test func writingRemovesADeadRunsLeftoversButNotALiveOnes() async throws {
    try await withTemporaryDirectory("atomic-leftovers") { folder in
      let target = folder.appendingPathComponent("Info.plist")
      // A process that has exited: its ID is free (until reused, which is then a live one).
      // Reaped before use: a zombie would still hold the ID.
      let child = try ChildProcess("true", [])
      child.wait()
      let pid = child.pid
      let old = Date(timeIntervalSinceNow: -7200)
      let leftovers = [
        ".Info.plist.folio-tmp-\(pid)-1a2b", ".Info.plist.folio-old-\(pid)-3c",
        ".Info.plist.folio-\(pid)-5D6E7F80",  // an earlier export's name
        ".Info.plist.folio-0A1B2C3D.tmp",  // what `plist convert` wrote before
      ]
      let kept = [
        ".Info.plist.folio-tmp-\(getpid())-99",  // this process's own
        ".Other.plist.folio-tmp-\(pid)-1a2b",  // another target's
        ".Info.plist.folio-notes",  // not a temporary's name
      ]
      for name in leftovers + kept {
        let url = folder.appendingPathComponent(name)
        try Data().write(to: url)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: url.path)
      }
      // A leftover folder (a killed expansion's) goes too, whatever its permissions.
      let staging = folder.appendingPathComponent(".Info.plist.folio-expand-\(pid)-Q1w2E3")
      try FileManager.default.createDirectory(
        at: staging.appendingPathComponent("a/b"), withIntermediateDirectories: true)
      chmod(staging.appendingPathComponent("a").path, 0o000)
      try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: staging.path)

      try AtomicFile.write(Array("<plist/>".utf8), to: target.path)
      #expect(try names(in: folder) == (kept + ["Info.plist"]).sorted())
    }
  }

  @Test func leftoverNamesAreRecognisedByOwner() {
    #expect(LeftoverTemporaries.owner(of: "tmp-42-abc") == .process(42))
    #expect(LeftoverTemporaries.owner(of: "expand-42-Xy12Zq.previous") == .process(42))
    #expect(LeftoverTemporaries.owner(of: "42-1F2E3D4C") == .process(42))
    #expect(LeftoverTemporaries.owner(of: "DEADBEEF.tmp") == .unknown)
    #expect(LeftoverTemporaries.owner(of: "lock") == nil)
    #expect(LeftoverTemporaries.owner(of: "tmp-x-1") == nil)
    #expect(LeftoverTemporaries.owner(of: "tmp-42-") == nil)
  }
}
