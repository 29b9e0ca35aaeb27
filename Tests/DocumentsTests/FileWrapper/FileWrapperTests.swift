import Archives
import Documents
import FolioTestSupport
import Foundation
import Testing

/// A folder holding a small package: `metadata.json`, `pages/a.txt`, `pages/b.txt`, a link.
private func makePackage(in folder: URL, name: String = "Doc.pkg") throws -> URL {
  let package = folder.appendingPathComponent(name)
  let pages = package.appendingPathComponent("pages")
  try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
  try Data(#"{"title":"T"}"#.utf8).write(to: package.appendingPathComponent("metadata.json"))
  try Data("first page\n".utf8).write(to: pages.appendingPathComponent("a.txt"))
  try Data("second page\n".utf8).write(to: pages.appendingPathComponent("b.txt"))
  try FileManager.default.createSymbolicLink(
    atPath: package.appendingPathComponent("latest").path, withDestinationPath: "pages/b.txt")
  chmod(pages.appendingPathComponent("b.txt").path, 0o600)
  return package
}

private func inode(_ url: URL) -> UInt64 {
  var info = stat()
  lstat(url.path, &info)
  return UInt64(info.st_ino)
}

private func modificationTime(_ url: URL) -> timespec {
  var info = stat()
  lstat(url.path, &info)
  return info.st_mtim
}

private func packagingCode(_ body: () throws -> Void) -> PackagingError.Code? {
  do {
    try body()
    return nil
  } catch let error as PackagingError {
    return error.code
  } catch let error as CocoaError {
    // Apple's API throws Cocoa errors; Folio's own is underneath.
    guard let folio = error.underlying as? PackagingError else {
      return PackagingError.Code("unexpected: \(error)")
    }
    return folio.code
  } catch {
    return PackagingError.Code("unexpected: \(error)")
  }
}

@Suite struct FileWrapperReadingTests {
  @Test func aFolderIsReadWholeButFileBytesOnlyWhenAsked() async throws {
    try await withTemporaryDirectory("wrapper-read") { folder in
      let package = try makePackage(in: folder)
      let root = try FileWrapper(url: package)
      #expect(root.isDirectory)
      #expect(root.filename == "Doc.pkg")
      #expect(Set(root.fileWrappers?.keys ?? [:].keys) == ["metadata.json", "pages", "latest"])
      let pages = try #require(root.fileWrappers?["pages"]?.fileWrappers)
      let second = try #require(pages["b.txt"])
      #expect(second.isRegularFile)
      #expect(second.regularFileSize == 12)
      #expect(second.fileAttributes[FileAttributeKey.posixPermissions.rawValue] as? Int == 0o600)
      let link = try #require(root.fileWrappers?["latest"])
      #expect(link.isSymbolicLink)
      #expect(link.symbolicLinkDestinationURL?.relativePath == "pages/b.txt")
      #expect(link.regularFileContents == nil)

      // Bytes come from disk on first access: removing the file first is seen then.
      try FileManager.default.removeItem(at: package.appendingPathComponent("pages/a.txt"))
      let first = try #require(pages["a.txt"])
      #expect(first.regularFileContents == nil)
      #expect(packagingCode { _ = try first.readRegularFileContents() } == .fileVanished)
      #expect(second.regularFileContents == Data("second page\n".utf8))
    }
  }

  @Test func aFileChangedAfterTheFolderWasReadIsRefusedNotMixedIn() async throws {
    try await withTemporaryDirectory("wrapper-changed") { folder in
      let package = try makePackage(in: folder)
      let root = try FileWrapper(url: package)
      let metadata = try #require(root.fileWrappers?["metadata.json"])
      // Replaced by a rename (a new inode), as an editor's safe save does.
      let replacement = folder.appendingPathComponent("new.json")
      try Data(#"{"title":"U"}"#.utf8).write(to: replacement)
      rename(replacement.path, package.appendingPathComponent("metadata.json").path)
      let error = #expect(throws: PackagingError.self) {
        _ = try metadata.readRegularFileContents()
      }
      #expect(error?.code == .fileReplaced)
      #expect(error?.message.contains("Doc.pkg/metadata.json") == true)
    }
  }

  @Test func immediateReadingKeepsTheBytesWhateverHappensLater() async throws {
    try await withTemporaryDirectory("wrapper-immediate") { folder in
      let package = try makePackage(in: folder)
      let root = try FileWrapper(url: package, options: .immediate)
      try FileManager.default.removeItem(at: package)
      #expect(
        root.fileWrappers?["pages"]?.fileWrappers?["a.txt"]?.regularFileContents
          == Data("first page\n".utf8))
    }
  }

  @Test func readingSomethingMissingOrSpecialFailsNamingIt() async throws {
    try await withTemporaryDirectory("wrapper-missing") { folder in
      let missing = folder.appendingPathComponent("nothing-here")
      #expect(packagingCode { _ = try FileWrapper(url: missing) } == .fileVanished)
      let withPipe = folder.appendingPathComponent("Pipe.pkg")
      try FileManager.default.createDirectory(at: withPipe, withIntermediateDirectories: true)
      mkfifo(withPipe.appendingPathComponent("fifo").path, 0o644)
      #expect(packagingCode { _ = try FileWrapper(url: withPipe) } == .fileUnreadable)
    }
  }

  /// Children are keyed by `String`, which holds `caf\u{E9}` and `cafe\u{301}` equal: two such
  /// files are refused naming both spellings, not merged into one child.
  @Test func twoSpellingsOfOneNameInAFolderAreRefusedNamingBoth() async throws {
    try await withTemporaryDirectory("wrapper-normalisation") { folder in
      let package = folder.appendingPathComponent("Names.pkg")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
      try Data("composed".utf8).write(to: package.appendingPathComponent("caf\u{E9}.txt"))
      try Data("decomposed".utf8).write(to: package.appendingPathComponent("cafe\u{301}.txt"))
      // Apple's API throws a Cocoa error; Folio's, naming both spellings, is underneath.
      let cocoa = #expect(throws: CocoaError.self) { _ = try FileWrapper(url: package) }
      let error = cocoa?.underlying as? PackagingError
      #expect(error?.code == .nameCollision)
      #expect(error?.message.contains("caf\\u{E9}.txt") == true, "\(error?.message ?? "")")
      #expect(error?.message.contains("cafe\\u{301}.txt") == true, "\(error?.message ?? "")")
    }
  }

  @Test func chunkedReadsDeliverTheWholeFileInBoundedPieces() async throws {
    try await withTemporaryDirectory("wrapper-chunks") { folder in
      let bytes = Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
      try bytes.write(to: folder.appendingPathComponent("blob.bin"))
      let file = try FileWrapper(url: folder.appendingPathComponent("blob.bin"))
      var pieces: [Int] = []
      var joined = Data()
      try file.readRegularFileContents { chunk in
        pieces.append(chunk.count)
        joined.append(chunk)
      }
      #expect(joined == bytes)
      #expect(pieces.allSatisfy { $0 <= FileWrapper.readChunkSize })
      #expect(pieces.count == 3)
    }
  }

  @Test func matchingComparesDatesAndStructureAndUpdatingAlsoPermissions() async throws {
    try await withTemporaryDirectory("wrapper-match") { folder in
      let package = try makePackage(in: folder)
      let root = try FileWrapper(url: package)
      #expect(root.matchesContents(of: package))
      #expect(!root.needsToBeUpdated(fromPath: package.path))

      chmod(package.appendingPathComponent("metadata.json").path, 0o640)
      #expect(root.matchesContents(of: package))
      #expect(root.needsToBeUpdated(fromPath: package.path))

      try Data("new page\n".utf8).write(to: package.appendingPathComponent("pages/c.txt"))
      #expect(!root.matchesContents(of: package))
    }
  }

  @Test func rereadingKeepsTheChildrenThatDidNotChange() async throws {
    try await withTemporaryDirectory("wrapper-reread") { folder in
      let package = try makePackage(in: folder)
      let root = try FileWrapper(url: package)
      let pages = try #require(root.fileWrappers?["pages"])
      let first = try #require(pages.fileWrappers?["a.txt"])
      let second = try #require(pages.fileWrappers?["b.txt"])
      _ = second.regularFileContents

      let replacement = folder.appendingPathComponent("b.new")
      try Data("second page, edited\n".utf8).write(to: replacement)
      rename(replacement.path, package.appendingPathComponent("pages/b.txt").path)
      try FileManager.default.removeItem(at: package.appendingPathComponent("metadata.json"))
      try root.read(from: package)

      #expect(root.fileWrappers?["metadata.json"] == nil)
      #expect(root.fileWrappers?["pages"] === pages)
      #expect(pages.fileWrappers?["a.txt"] === first)
      #expect(
        pages.fileWrappers?["b.txt"]?.regularFileContents == Data("second page, edited\n".utf8))
      #expect(root.matchesContents(of: package))
    }
  }
}

@Suite struct FileWrapperWritingTests {
  @Test func aTreeBuiltInMemoryIsWrittenWithItsBytesLinksAndPermissions() async throws {
    try await withTemporaryDirectory("wrapper-write") { folder in
      let script = FileWrapper(regularFileWithContents: Data("#!/bin/sh\n".utf8))
      script.fileAttributes[FileAttributeKey.posixPermissions.rawValue] = 0o755
      let root = FileWrapper(directoryWithFileWrappers: [
        "notes.txt": FileWrapper(regularFileWithContents: Data("hello\n".utf8)),
        "bin": FileWrapper(directoryWithFileWrappers: ["run": script]),
        "link": FileWrapper(
          symbolicLinkWithDestinationURL: URL(
            fileURLWithPath: "notes.txt", relativeTo: folder.appendingPathComponent("Out"))),
      ])
      let output = folder.appendingPathComponent("Out")
      try root.write(to: output, options: .withNameUpdating, originalContentsURL: nil)
      #expect(
        try Data(contentsOf: output.appendingPathComponent("notes.txt")) == Data("hello\n".utf8))
      #expect(
        try FileManager.default.destinationOfSymbolicLink(
          atPath: output.appendingPathComponent("link").path) == "notes.txt")
      var info = stat()
      stat(output.appendingPathComponent("bin/run").path, &info)
      #expect(info.st_mode & 0o777 == 0o755)
      #expect(root.filename == "Out")
      #expect(script.filename == "run")
      // Read back, it is the same tree.
      let reread = try FileWrapper(url: output)
      #expect(
        reread.fileWrappers?["bin"]?.fileWrappers?["run"]?.regularFileContents
          == Data("#!/bin/sh\n".utf8))
      // A folder is not written over without the atomic option.
      #expect(
        packagingCode { try root.write(to: output, options: [], originalContentsURL: nil) }
          == .fileExists)
    }
  }

  @Test func writingBesideTheOriginalLinksEveryFileWhoseBytesDidNotChange() async throws {
    try await withTemporaryDirectory("wrapper-incremental") { folder in
      let package = try makePackage(in: folder)
      let before = (
        metadata: inode(package.appendingPathComponent("metadata.json")),
        first: inode(package.appendingPathComponent("pages/a.txt")),
        second: inode(package.appendingPathComponent("pages/b.txt"))
      )
      let secondTime = modificationTime(package.appendingPathComponent("pages/b.txt"))
      // A fresh tree, as a document writer builds it on every save: only a.txt changed.
      let tree = FileWrapper(directoryWithFileWrappers: [
        "metadata.json": FileWrapper(regularFileWithContents: Data(#"{"title":"T"}"#.utf8)),
        "pages": FileWrapper(directoryWithFileWrappers: [
          "a.txt": FileWrapper(regularFileWithContents: Data("first page, edited\n".utf8)),
          "b.txt": FileWrapper(regularFileWithContents: Data("second page\n".utf8)),
        ]),
      ])
      try tree.write(to: package, options: .atomic, originalContentsURL: package)

      #expect(inode(package.appendingPathComponent("metadata.json")) == before.metadata)
      #expect(inode(package.appendingPathComponent("pages/b.txt")) == before.second)
      let after = modificationTime(package.appendingPathComponent("pages/b.txt"))
      #expect(after.tv_sec == secondTime.tv_sec && after.tv_nsec == secondTime.tv_nsec)
      #expect(inode(package.appendingPathComponent("pages/a.txt")) != before.first)
      #expect(
        try Data(contentsOf: package.appendingPathComponent("pages/a.txt"))
          == Data("first page, edited\n".utf8))
      // The link the new tree does not hold is gone; nothing is left beside the package.
      #expect(
        !FileManager.default.fileExists(atPath: package.appendingPathComponent("latest").path))
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Doc.pkg"])

      // Saved again unchanged, every file is linked, even the one written last time.
      let edited = inode(package.appendingPathComponent("pages/a.txt"))
      try tree.write(to: package, options: .atomic, originalContentsURL: package)
      #expect(inode(package.appendingPathComponent("pages/a.txt")) == edited)
    }
  }

  @Test func aTreeReadFromDiskIsLinkedWithoutReadingItsFiles() async throws {
    try await withTemporaryDirectory("wrapper-copy") { folder in
      let package = try makePackage(in: folder)
      let root = try FileWrapper(url: package)
      let copy = folder.appendingPathComponent("Copy.pkg")
      try root.write(to: copy, options: .atomic, originalContentsURL: package)
      #expect(
        inode(copy.appendingPathComponent("pages/a.txt"))
          == inode(package.appendingPathComponent("pages/a.txt")))
      #expect(
        try TreeManifest(of: copy, includeRoot: false)
          == TreeManifest(of: package, includeRoot: false))
    }
  }

  @Test func aFailedAtomicWriteLeavesTheDestinationAsItWas() async throws {
    try await withTemporaryDirectory("wrapper-failed") { folder in
      let package = try makePackage(in: folder)
      let manifest = try TreeManifest(of: package)
      let bad = FileWrapper(directoryWithFileWrappers: [
        "ok.txt": FileWrapper(regularFileWithContents: Data("x".utf8)),
        "../escape.txt": FileWrapper(regularFileWithContents: Data("y".utf8)),
      ])
      #expect(
        packagingCode { try bad.write(to: package, options: .atomic, originalContentsURL: package) }
          == .fileWriteFailed)
      #expect(try TreeManifest(of: package) == manifest)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Doc.pkg"])
      #expect(
        !FileManager.default.fileExists(atPath: folder.appendingPathComponent("escape.txt").path))
    }
  }

  @Test func childrenWithTheSamePreferredNameGetFoundationsKeysAndFreeNames() async throws {
    try await withTemporaryDirectory("wrapper-names") { folder in
      let root = FileWrapper(directoryWithFileWrappers: [:])
      let first = root.addRegularFile(withContents: Data("1".utf8), preferredFilename: "page.txt")
      let second = root.addRegularFile(withContents: Data("2".utf8), preferredFilename: "page.txt")
      #expect(first == "page.txt")
      #expect(second == "1__#$!@%!#__page.txt")
      let child = try #require(root.fileWrappers?[second])
      #expect(root.keyForChildFileWrapper(child) == second)
      let output = folder.appendingPathComponent("Named")
      try root.write(to: output, options: [.atomic, .withNameUpdating], originalContentsURL: nil)
      #expect(
        Set(try FileManager.default.contentsOfDirectory(atPath: output.path))
          == ["page.txt", "page 2.txt"])
      #expect(child.filename == "page 2.txt")
      root.removeFileWrapper(child)
      #expect(root.fileWrappers?.count == 1)
    }
  }

  @Test func aSingleFileIsReplacedAtomically() async throws {
    try await withTemporaryDirectory("wrapper-file") { folder in
      let target = folder.appendingPathComponent("note.txt")
      try Data("old".utf8).write(to: target)
      let old = inode(target)
      try FileWrapper(regularFileWithContents: Data("new".utf8)).write(
        to: target, options: .atomic, originalContentsURL: target)
      #expect(try Data(contentsOf: target) == Data("new".utf8))
      #expect(inode(target) != old)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["note.txt"])
    }
  }
}

@Suite struct FileWrapperRealTreeTests {
  /// Debian's licence folder (base-files, on every Debian machine): files and symbolic links
  /// nobody here wrote, on another file system than the temporary folder, so linking
  /// unchanged files fails with `EXDEV` and they are copied instead.
  @Test func aSystemFolderIsCopiedLosslesslyAcrossFileSystems() async throws {
    let licences = URL(fileURLWithPath: "/usr/share/common-licenses")
    try #require(FileManager.default.fileExists(atPath: licences.path))
    try await withTemporaryDirectory("wrapper-licences") { folder in
      let tree = try FileWrapper(url: licences)
      let copy = folder.appendingPathComponent("licences")
      try tree.write(to: copy, options: .atomic, originalContentsURL: licences)
      let expected = try TreeManifest(of: licences, includeRoot: false)
      let written = try TreeManifest(of: copy, includeRoot: false)
      #expect(written == expected, "\(written.differences(from: expected))")
      #expect(tree.fileWrappers?.values.contains { $0.isSymbolicLink } == true)
    }
  }
}
