import FolioTestSupport
import Foundation
import Glibc
import Testing

@testable import FolioSystem

@Suite struct FileTreeTests {
  @Test func listingShowsEveryNameFoundationHides() async throws {
    try await withTemporaryDirectory("listing") { folder in
      for name in ["._", "._Info.plist", ".hidden", "plain", "Ünïcödé"] {
        try Data().write(to: folder.appendingPathComponent(name))
      }
      #expect(
        try FolderListing.names(atPath: folder.path).sorted()
          == ["._", "._Info.plist", ".hidden", "plain", "Ünïcödé"])
      // Foundation's listing is the reason this one exists: it drops "._".
      let foundation = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      #expect(!foundation.contains("._"))
    }
  }

  @Test func listingANameThatIsNotUTF8FailsRatherThanMisspellsIt() async throws {
    try await withTemporaryDirectory("listing-bytes") { folder in
      let name: [UInt8] = [0x61, 0xFF, 0x62]
      let path = Array(folder.path.utf8) + [0x2F] + name
      let descriptor = open(path.map { CChar(bitPattern: $0) } + [0], O_CREAT | O_WRONLY, 0o644)
      #expect(descriptor >= 0)
      close(descriptor)
      #expect(throws: SystemError(errno: EILSEQ)) { try FolderListing.names(atPath: folder.path) }
      var seen: [[UInt8]] = []
      try FolderListing.forEachName(atPath: folder.path) { bytes in
        seen.append(bytes)
        return true
      }
      #expect(seen == [name])
      // And the one removeTree removes it, by its bytes.
      FileTree.remove(atPath: folder.path)
      #expect(!FileTree.exists(folder.path))
    }
  }

  @Test func listingAMissingFolderThrowsItsErrno() {
    #expect(throws: SystemError(errno: ENOENT)) {
      try FolderListing.names(atPath: "/nonexistent-folio-folder")
    }
  }

  @Test func removeTreeRemovesUnreadableAndUnwritableFoldersAndHiddenNames() async throws {
    try await withTemporaryDirectory("remove") { folder in
      let tree = folder.appendingPathComponent("tree")
      let deep = tree.appendingPathComponent("a/b/c")
      try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
      try Data("x".utf8).write(to: deep.appendingPathComponent("._"))
      try Data("y".utf8).write(to: tree.appendingPathComponent("a/file"))
      chmod(deep.path, 0o000)  // neither readable nor searchable
      chmod(tree.appendingPathComponent("a/b").path, 0o500)  // not writable
      chmod(tree.appendingPathComponent("a").path, 0o300)  // not readable
      FileTree.remove(atPath: tree.path)
      #expect(!FileTree.exists(tree.path))
      #expect(try FolderListing.names(atPath: folder.path) == [])
    }
  }

  @Test func removeTreeRemovesALinkNotWhatItPointsTo() async throws {
    try await withTemporaryDirectory("remove-link") { folder in
      let kept = folder.appendingPathComponent("kept")
      try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: false)
      try Data("k".utf8).write(to: kept.appendingPathComponent("file"))
      let link = folder.appendingPathComponent("link")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: kept)
      FileTree.remove(atPath: link.path)
      #expect(!FileTree.exists(link.path))
      #expect(FileManager.default.fileExists(atPath: kept.appendingPathComponent("file").path))
      FileTree.remove(atPath: folder.appendingPathComponent("never-there").path)
    }
  }

  @Test func movingAFolderOverAFolderSwapsItInWhole() async throws {
    try await withTemporaryDirectory("move-swap") { folder in
      let target = folder.appendingPathComponent("Doc.examplenotebook")
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
      try Data("old".utf8).write(to: target.appendingPathComponent("old.txt"))
      let source = URL(fileURLWithPath: TemporaryName.beside(target.path))
      try FileManager.default.createDirectory(at: source, withIntermediateDirectories: false)
      try Data("new".utf8).write(to: source.appendingPathComponent("new.txt"))
      try FileTree.move(source.path, to: target.path, replacing: true)
      #expect(try FolderListing.names(atPath: target.path) == ["new.txt"])
      #expect(try FolderListing.names(atPath: folder.path) == ["Doc.examplenotebook"])
    }
  }

  @Test func movingWithoutReplacingRefusesAnyExistingTarget() async throws {
    try await withTemporaryDirectory("move-noreplace") { folder in
      let file = folder.appendingPathComponent("file")
      let tree = folder.appendingPathComponent("tree")
      try Data("f".utf8).write(to: file)
      try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: false)
      for target in [file, tree] {
        let source = TemporaryName.beside(target.path)
        try Data("new".utf8).write(to: URL(fileURLWithPath: source))
        #expect(throws: FileTree.MoveFailure.targetExists) {
          try FileTree.move(source, to: target.path, replacing: false)
        }
        #expect(FileTree.exists(source))
        FileTree.remove(atPath: source)
      }
      #expect(try String(contentsOf: file, encoding: .utf8) == "f")
      let fresh = folder.appendingPathComponent("fresh")
      let source = TemporaryName.beside(fresh.path)
      try Data("n".utf8).write(to: URL(fileURLWithPath: source))
      try FileTree.move(source, to: fresh.path, replacing: false)
      #expect(try String(contentsOf: fresh, encoding: .utf8) == "n")
    }
  }

  @Test func aFileReplacesAFolderAndAFolderAFile() async throws {
    try await withTemporaryDirectory("move-kinds") { folder in
      let target = folder.appendingPathComponent("thing")
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
      let file = TemporaryName.beside(target.path)
      try Data("file".utf8).write(to: URL(fileURLWithPath: file))
      try FileTree.move(file, to: target.path, replacing: true)
      #expect(!FileTree.isFolder(target.path))
      let tree = TemporaryName.beside(target.path)
      try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: false)
      try FileTree.move(tree, to: target.path, replacing: true)
      #expect(FileTree.isFolder(target.path))
      #expect(try FolderListing.names(atPath: folder.path) == ["thing"])
    }
  }

  @Test func temporaryNamesSitBesideTheirTargetAndNameThisProcess() {
    let name = TemporaryName.beside("/a/b/Notes.txt", kind: .work)
    #expect(name.hasPrefix("/a/b/.Notes.txt.folio-work-\(getpid())-"))
    #expect(TemporaryName.split("/a/b/") == ("/a", "b"))
    #expect(TemporaryName.split("name") == (".", "name"))
    #expect(TemporaryName.split("/top") == ("/", "top"))
  }

  @Test func creatingFoldersMakesEveryMissingOneAndAcceptsThoseThere() async throws {
    try await withTemporaryDirectory("folders") { folder in
      let deep = folder.path + "/a/b/c"
      try FileTree.createFolders(atPath: deep, permissions: 0o700)
      #expect(FileTree.isFolder(deep))
      var info = stat()
      #expect(stat(folder.path + "/a", &info) == 0 && info.st_mode & 0o777 == 0o700)
      try FileTree.createFolders(atPath: deep)
      // Through a link to a folder, as `mkdir -p` goes.
      try FileManager.default.createSymbolicLink(
        atPath: folder.path + "/link", withDestinationPath: folder.path + "/a")
      try FileTree.createFolders(atPath: folder.path + "/link/b/d")
      #expect(FileTree.isFolder(folder.path + "/a/b/d"))
      try Data("x".utf8).write(to: folder.appendingPathComponent("file"))
      // The file in the way is the folder that cannot be made.
      #expect(throws: SystemError(errno: EEXIST)) {
        try FileTree.createFolders(atPath: folder.path + "/file/inside")
      }
      #expect(throws: SystemError(errno: EEXIST)) {
        try FileTree.createFolders(atPath: folder.path + "/file")
      }
    }
  }

  @Test func aFilesIdentityChangesWithItsContentsEvenWhenItsTimeIsSetBack() async throws {
    try await withTemporaryDirectory("identity") { folder in
      let path = folder.path + "/file"
      try Data("one".utf8).write(to: URL(fileURLWithPath: path))
      let first = try FileIdentity(atPath: path)
      #expect(try FileIdentity(atPath: path) == first)
      #expect(first.size == 3)
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      try handle.write(contentsOf: Data("two".utf8))
      try handle.close()
      var times = [
        timespec(
          tv_sec: Int(first.modified / 1_000_000_000), tv_nsec: Int(first.modified % 1_000_000_000)),
        timespec(
          tv_sec: Int(first.modified / 1_000_000_000), tv_nsec: Int(first.modified % 1_000_000_000)),
      ]
      #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
      let second = try FileIdentity(atPath: path)
      #expect(second.modified == first.modified && second.inode == first.inode)
      #expect(second != first)
      #expect(throws: SystemError(errno: ENOENT)) { try FileIdentity(atPath: path + "-missing") }
    }
  }
}

@Suite struct FileTreeDeepRemovalTests {
  @Test func aTreeDeeperThanPATHMAXIsRemovedWhole() throws {
    let folder = try makeTemporaryDirectory("remove-deep")
    defer { _ = try? runProcess("rm", ["-rf", folder.path]) }
    // 900 folders of 12-byte names: a path of about 11,700 bytes (PATH_MAX is 4,096), with
    // fewer descriptors open at once than the usual limit of 1,024.
    let descriptor = try openFolderChain(
      below: folder.path, names: repeatElement("abcdefghijkl", count: 900))
    close(openat(descriptor, "leaf.txt", O_WRONLY | O_CREAT, 0o644))
    symlinkat("/", descriptor, "to-root")
    close(descriptor)
    FileTree.remove(atPath: folder.path)
    #expect(!FileTree.exists(folder.path))
  }
}
