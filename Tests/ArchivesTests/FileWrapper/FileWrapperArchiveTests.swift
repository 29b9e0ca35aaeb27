import Documents
import FolioTestSupport
import Foundation
import Testing

@testable import Archives

/// A tree as names, kinds, bytes and permissions, whether read from disk or from an archive.
private func describe(_ wrapper: FileWrapper, _ path: String = "") throws -> [String: String] {
  var result: [String: String] = [:]
  let permissions = wrapper.fileAttributes[FileAttributeKey.posixPermissions.rawValue] as? Int
  if let children = wrapper.fileWrappers {
    result[path + "/"] = "folder"
    for (name, child) in children { result.merge(try describe(child, path + "/" + name)) { $1 } }
  } else if wrapper.isSymbolicLink {
    result[path] = "link " + (wrapper.symbolicLinkDestinationURL?.relativePath ?? "")
  } else {
    let data = try wrapper.readRegularFileContents()
    result[path] = "file \(String(permissions ?? 0, radix: 8)) \(data.count) \(data.hashValue)"
  }
  return result
}

@Suite struct FileWrapperArchiveTests {
  @Test(arguments: ArchiveFormat.allCases)
  func aPackedNotebookReadsBackAsThePackageItself(format: ArchiveFormat) async throws {
    try await withTemporaryDirectory("wrapper-archive") { folder in
      let archive = folder.appendingPathComponent("Notebook.\(format.fileExtension)")
      _ = try await Packer.pack(
        ProjectPaths.sampleNotebook, to: archive, options: PackOptions(format: format))
      let tree = try FileWrapper(archiveAt: archive)
      #expect(tree.isDirectory)
      #expect(tree.filename == "Notebook.examplenotebook")
      #expect(try describe(tree) == describe(FileWrapper(url: ProjectPaths.sampleNotebook)))
      // Nothing was written beside the archive.
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path) == [
          archive.lastPathComponent
        ])
    }
  }

  /// Archives written by the peers: Python's zipfile and tarfile, bsdtar.
  @Test func archivesOtherToolsWroteReadAsTheirTrees() async throws {
    try await withTemporaryDirectory("wrapper-peers") { folder in
      let source = folder.appendingPathComponent("Notes.examplenotebook")
      try FileManager.default.copyItem(at: ProjectPaths.sampleNotebook, to: source)
      let expected = try describe(FileWrapper(url: source))
      let script = """
        import sys, os, zipfile, tarfile
        src, out = sys.argv[1], sys.argv[2]
        base = os.path.dirname(src)
        with zipfile.ZipFile(out + '.zip', 'w', zipfile.ZIP_DEFLATED) as z:
            for root, dirs, files in os.walk(src):
                dirs.sort()
                for name in sorted(files):
                    path = os.path.join(root, name)
                    z.write(path, os.path.relpath(path, base))
        with tarfile.open(out + '.tar.gz', 'w:gz') as t:
            t.add(src, arcname=os.path.basename(src))
        """
      let python = try runProcess(
        "python3", ["-c", script, source.path, folder.appendingPathComponent("py").path])
      #expect(python.status == 0, "\(python.errorText)")
      let bsdtar = try runProcess(
        "bsdtar",
        [
          "-cJf", folder.appendingPathComponent("bsd.tar.xz").path, "-C", folder.path,
          "Notes.examplenotebook",
        ])
      #expect(bsdtar.status == 0, "\(bsdtar.errorText)")
      for name in ["py.tar.gz", "bsd.tar.xz"] {
        let tree = try FileWrapper(archiveAt: folder.appendingPathComponent(name))
        #expect(try describe(tree) == expected, "\(name)")
      }
      // Python's zip has no folder entries and no modes for them: the files are the same.
      let zipped = try describe(FileWrapper(archiveAt: folder.appendingPathComponent("py.zip")))
      #expect(
        zipped.filter { !$0.key.hasSuffix("/") }.mapValues { $0.split(separator: " ").dropFirst(2) }
          == expected.filter { !$0.key.hasSuffix("/") }.mapValues {
            $0.split(separator: " ").dropFirst(2)
          })
    }
  }

  /// Every archive `expand` refuses, a wrapper refuses with the same code.
  @Test(arguments: HostileArchiveTests.refusals)
  func whatExpandRefusesAWrapperRefusesTheSameWay(_ refusal: HostileArchiveTests.Refusal)
    async throws
  {
    try await withTemporaryDirectory("wrapper-hostile") { folder in
      let outside = folder.appendingPathComponent("outside")
      try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
      let archive = try makeHostileArchive(refusal.archive, in: folder, outside: outside)
      let error = #expect(throws: PackagingError.self) {
        try FileWrapper(archiveAt: archive, policy: refusal.policy)
      }
      #expect(error?.code == refusal.code, "\(error.map { "\($0)" } ?? "no error")")
      #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }
  }

  @Test func anArchiveLargerThanTheMemoryLimitIsRefusedNamingTheLimit() async throws {
    try await withTemporaryDirectory("wrapper-limit") { folder in
      let archive = folder.appendingPathComponent("Notebook.zip")
      _ = try await Packer.pack(ProjectPaths.sampleNotebook, to: archive)
      let error = #expect(throws: PackagingError.self) {
        try FileWrapper(archiveAt: archive, memoryLimit: 100)
      }
      #expect(error?.code == .archiveTooLargeForMemory)
      #expect(error?.message.contains("Notebook.zip") == true)
    }
  }

  @Test func keepingTheTopFolderGivesTheArchiveAsAFolder() async throws {
    try await withTemporaryDirectory("wrapper-top") { folder in
      let archive = folder.appendingPathComponent("Packed.tar")
      _ = try await Packer.pack(
        ProjectPaths.sampleNotebook, to: archive, options: PackOptions(format: .tar))
      var policy = ExpansionPolicy.default
      policy.keepsTopFolder = true
      let tree = try FileWrapper(archiveAt: archive, policy: policy)
      #expect(tree.filename == "Packed")
      #expect(tree.fileWrappers?.keys.sorted() == ["Notebook.examplenotebook"])
    }
  }
}
