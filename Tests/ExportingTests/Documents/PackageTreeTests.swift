import Exporting
import FolioTestSupport
import Foundation
import Packaging
import Testing

@Suite struct PackageTreeTests {
  @Test func structureIsReadAtOnceAndContentsOnlyWhenAsked() throws {
    try withTemporaryDirectoryBlocking { folder in
      let package = folder.appendingPathComponent("Doc.pkg")
      try FileManager.default.createDirectory(
        at: package.appendingPathComponent("sub"), withIntermediateDirectories: true)
      try Data("one".utf8).write(to: package.appendingPathComponent("a.txt"))
      try Data("two".utf8).write(to: package.appendingPathComponent("sub/b.txt"))
      try FileManager.default.createSymbolicLink(
        atPath: package.appendingPathComponent("link").path, withDestinationPath: "a.txt")

      let tree = try PackageTree(reading: package, displayName: "Doc.pkg")
      #expect(tree.root.sortedChildNames == ["a.txt", "link", "sub"])
      #expect(tree.root.node(at: "sub/b.txt")?.byteCount == 3)
      #expect(tree.root.node(at: "link")?.symbolicLinkDestination == "a.txt")
      #expect(tree.fileCount == 2)

      // The bytes are read when asked, so a change made after opening shows.
      try Data("ONE!".utf8).write(to: package.appendingPathComponent("a.txt"))
      #expect(try tree.root.node(at: "a.txt")?.regularFileContents() == Data("ONE!".utf8))
    }
  }

  @Test func namesFoundationHidesAreStillPartOfTheTree() throws {
    try withTemporaryDirectoryBlocking { folder in
      let package = folder.appendingPathComponent("Doc.pkg")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
      for name in ["._", ".hidden", "._a.txt", "a.txt"] {
        try Data(name.utf8).write(to: package.appendingPathComponent(name))
      }
      let tree = try PackageTree(reading: package, displayName: "Doc.pkg")
      #expect(tree.root.sortedChildNames == ["._", "._a.txt", ".hidden", "a.txt"])
      #expect(try tree.root.node(at: "._")?.regularFileContents() == Data("._".utf8))
    }
  }

  @Test func readingAFileThatVanishedThrowsNamingIt() throws {
    try withTemporaryDirectoryBlocking { folder in
      let package = folder.appendingPathComponent("Doc.pkg")
      try FileManager.default.createDirectory(
        at: package.appendingPathComponent("pages"), withIntermediateDirectories: true)
      try Data("x".utf8).write(to: package.appendingPathComponent("pages/p.txt"))
      let tree = try PackageTree(reading: package, displayName: "Doc.pkg")
      try FileManager.default.removeItem(at: package.appendingPathComponent("pages/p.txt"))
      let error = #expect(throws: ExportError.self) {
        try tree.root.node(at: "pages/p.txt")?.regularFileContents()
      }
      #expect(error?.code == .fileVanished)
      #expect(error?.message.contains("'Doc.pkg/pages/p.txt'") == true)
    }
  }

  @Test func chunkedReadsDeliverTheWholeFileInBoundedPieces() throws {
    try withTemporaryDirectoryBlocking { folder in
      let package = folder.appendingPathComponent("Big.pkg")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
      let bytes = Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
      try bytes.write(to: package.appendingPathComponent("blob.bin"))
      let node = try #require(try PackageTree(reading: package).root.node(at: "blob.bin"))
      var pieces: [Int] = []
      var joined = Data()
      try node.readContents { chunk in
        pieces.append(chunk.count)
        joined.append(chunk)
      }
      #expect(joined == bytes)
      #expect(pieces.allSatisfy { $0 <= PackageNode.readChunkSize })
      #expect(pieces.count == 3)
    }
  }

  @Test func readingAFileIsNotAFolder() throws {
    try withTemporaryDirectoryBlocking { folder in
      let file = folder.appendingPathComponent("plain.txt")
      try Data().write(to: file)
      let error = #expect(throws: ExportError.self) {
        try PackageTree(reading: file, displayName: "plain.txt")
      }
      #expect(error?.code == .invalidInput)
    }
  }
}

@Suite struct PackageDocumentWriterTests {
  private struct Files: Sendable, Equatable { var files: [String: String] }

  private func writer(overwrite: Bool = false) -> PackageDocumentWriter<Files> {
    PackageDocumentWriter(overwrite: overwrite) { snapshot in
      var root: [String: PackageNode] = [:]
      var nested: [String: PackageNode] = [:]
      for (name, text) in snapshot.files {
        if name.hasPrefix("sub/") {
          nested[String(name.dropFirst(4))] = .file(Data(text.utf8))
        } else {
          root[name] = .file(Data(text.utf8))
        }
      }
      root["sub"] = .directory(nested)
      return .directory(root)
    }
  }

  private func contents(of url: URL) throws -> [String: String] {
    var result: [String: String] = [:]
    for (path, node) in try PackageTree(reading: url).root.regularFiles {
      result[path] = String(decoding: try node.regularFileContents(), as: UTF8.self)
    }
    return result
  }

  @Test func fullWriteCreatesThePackageAndLeavesNoTemporaries() async throws {
    try await withTemporaryDirectory("export") { folder in
      let target = folder.appendingPathComponent("Out.pkg")
      let snapshot = Files(files: ["a.txt": "A", "sub/b.txt": "B"])
      try await writer().write(
        snapshot: snapshot, to: target, previous: nil, progress: .untracked())
      #expect(try contents(of: target) == ["a.txt": "A", "sub/b.txt": "B"])
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Out.pkg"])
    }
  }

  @Test func existingOutputIsNotReplacedWithoutOverwrite() async throws {
    try await withTemporaryDirectory("export") { folder in
      let target = folder.appendingPathComponent("Out.pkg")
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
      try Data("keep".utf8).write(to: target.appendingPathComponent("old.txt"))
      let error = await #expect(throws: ExportError.self) {
        try await writer().write(
          snapshot: Files(files: ["a.txt": "A"]), to: target, previous: nil, progress: .untracked())
      }
      #expect(error?.code == .outputExists)
      #expect(try contents(of: target) == ["old.txt": "keep"])
      try await writer(overwrite: true).write(
        snapshot: Files(files: ["a.txt": "A"]), to: target, previous: nil, progress: .untracked())
      #expect(try contents(of: target) == ["a.txt": "A"])
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Out.pkg"])
    }
  }

  @Test func previousSnapshotLimitsTheWriteToChangedFiles() async throws {
    try await withTemporaryDirectory("export") { folder in
      let target = folder.appendingPathComponent("Out.pkg")
      let first = Files(files: ["a.txt": "A", "b.txt": "B", "sub/c.txt": "C"])
      try await writer().write(snapshot: first, to: target, previous: nil, progress: .untracked())
      let untouched = target.appendingPathComponent("a.txt")
      let before =
        try FileManager.default.attributesOfItem(atPath: untouched.path)[.systemFileNumber] as? Int
      // Mark the unchanged file so a rewrite would show.
      let marker = Date(timeIntervalSince1970: 1_000_000)
      try FileManager.default.setAttributes(
        [.modificationDate: marker], ofItemAtPath: untouched.path)

      let second = Files(files: ["a.txt": "A", "b.txt": "B2", "sub/d.txt": "D"])
      try await writer().write(
        snapshot: second, to: target, previous: first, progress: .untracked())
      #expect(try contents(of: target) == ["a.txt": "A", "b.txt": "B2", "sub/d.txt": "D"])
      let after = try FileManager.default.attributesOfItem(atPath: untouched.path)
      #expect(after[.systemFileNumber] as? Int == before)
      #expect(after[.modificationDate] as? Date == marker)
    }
  }

  @Test func progressCountsEveryFileAndByte() async throws {
    try await withTemporaryDirectory("export") { folder in
      let reporter = ProgressManager(totalCount: 1)
      try await writer().write(
        snapshot: Files(files: ["a.txt": "AAAA", "sub/b.txt": "BB"]),
        to: folder.appendingPathComponent("P.pkg"), previous: nil,
        progress: reporter.subprogress(assigningCount: 1))
      let snapshot = reporter.reporter.snapshot
      #expect(snapshot.completedFileCount == 2)
      #expect(snapshot.completedByteCount == 6)
      #expect(reporter.fractionCompleted == 1)
    }
  }
}
