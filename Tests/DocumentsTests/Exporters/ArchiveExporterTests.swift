import Archives
import FolioTestSupport
import Foundation
import Notebooks
import PropertyLists
import Testing
import UniformTypes

@testable import Documents

/// Every item of a tree: kind, permissions, and bytes or link target, by relative path.
private func treeDescription(_ root: URL) throws -> [String: String] {
  var result: [String: String] = [:]
  func walk(_ node: FileWrapper, _ path: String) throws {
    if let children = node.fileWrappers {
      result[path + "/"] = "dir"
      for name in children.keys.sorted() { try walk(children[name]!, path + "/" + name) }
    } else if node.isSymbolicLink {
      result[path] = "link → " + (node.symbolicLinkDestinationURL?.relativePath ?? "")
    } else {
      let data = try node.readRegularFileContents()
      let permissions = node.fileAttributes[FileAttributeKey.posixPermissions.rawValue] as? Int
      result[path] = "file \(String(permissions ?? 0, radix: 8)) \(data.count) \(data.hashValue)"
    }
  }
  try walk(try FileWrapper(url: root), "")
  return result
}

@Suite struct ArchiveExporterTests {
  @Test func sampleNotebookRoundTripsThroughEveryArchiveFormat() async throws {
    try await withTemporaryDirectory("export") { folder in
      let original = try treeDescription(ProjectPaths.sampleNotebook)
      for format in ArchiveFormat.allCases {
        let (archive, _, plan) = try await export(
          ProjectPaths.sampleNotebook, to: format.type, into: folder)
        #expect(plan.steps.map(\.exporter.name) == ["pack-\(format.name)"])
        #expect(archive.lastPathComponent == "Notebook.examplenotebook.\(format.fileExtension)")
        // bsdtar, the peer, reads every format and sees the package as the top folder.
        let listing = try runProcess("bsdtar", ["-tf", archive.path])
        #expect(listing.status == 0, "\(format): \(listing.errorText)")
        #expect(
          listing.outputText.contains(
            "Notebook.examplenotebook/pages/0B0C7E8A-3D2F-4C51-9A4E-6F1D2B3C4A51.txt"))
        let restoredFolder = folder.appendingPathComponent("restored-\(format.name)")
        try FileManager.default.createDirectory(
          at: restoredFolder, withIntermediateDirectories: true)
        let (restored, result, back) = try await export(
          archive, to: UTType(resolved: "com.example.notebook"), into: restoredFolder)
        #expect(back.steps.map(\.exporter.name) == ["expand-\(format.name)"])
        #expect(result.type.identifier == "com.example.notebook")
        #expect(restored.lastPathComponent == "Notebook.examplenotebook")
        #expect(try treeDescription(restored) == original, "\(format)")
      }
    }
  }

  @Test func zippedNotebookChainsThroughTheNotebookToPlainText() async throws {
    try await withTemporaryDirectory("export") { folder in
      let (zip, _, _) = try await export(ProjectPaths.sampleNotebook, to: .zip, into: folder)
      let (text, _, plan) = try await export(zip, to: .plainText, into: folder)
      #expect(plan.steps.map(\.exporter.name) == ["expand-zip", "notebook-to-text"])
      #expect(
        plan.explanation.contains(
          "step 1: expand-zip (public.zip-archive → com.example.notebook), registered for public.zip-archive → public.directory; read into memory for step 2, nothing expanded to disk"
        ))
      let snapshot = try NotebookPackage(contentsOf: ProjectPaths.sampleNotebook).snapshot()
      #expect(
        try String(contentsOf: text, encoding: .utf8) == NotebookFormat.plainText.render(snapshot))
      // Intermediate results are gone.
      #expect(
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == [
          "Notebook.examplenotebook.zip", "Notebook.txt",
        ])
    }
  }

  @Test func anArchiveTooLargeForMemoryIsExpandedToDiskWithTheSameResult() async throws {
    try await withTemporaryDirectory("export") { folder in
      let (zip, _, _) = try await export(ProjectPaths.sampleNotebook, to: .zip, into: folder)
      let inMemory = try await export(zip, to: .plainText, into: folder, name: "memory.txt")
      let plan = try ExportPlan.make(
        for: ExportItem(url: zip, type: .zip), to: .plainText,
        exporters: .builtIn.addingNotebookExporters(),
        registry: notebookRegistry())
      let onDisk = folder.appendingPathComponent("disk.txt")
      try await ExportPlan.$archiveMemoryLimit.withValue(10) {
        _ = try await plan.run(to: onDisk, progress: .untracked())
      }
      #expect(try Data(contentsOf: onDisk) == Data(contentsOf: inMemory.0))
    }
  }

  @Test func aHostileZipIsRefusedOnTheWayToTextToo() async throws {
    try await withTemporaryDirectory("export") { folder in
      let evil = folder.appendingPathComponent("evil.examplenotebook.zip")
      let script = """
        import zipfile, sys
        with zipfile.ZipFile(sys.argv[1], "w") as z:
            z.writestr("evil.examplenotebook/metadata.json", '{"title":"x","pageOrder":[]}')
            z.writestr("../escaped.txt", "gotcha")
        """
      #expect(try runProcess("python3", ["-c", script, evil.path]).status == 0)
      do {
        _ = try await export(evil, to: .plainText, into: folder)
        Issue.record("the hostile zip was exported")
      } catch let error as PackagingError {
        #expect(error.code == .parentComponent)
      }
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path) == [evil.lastPathComponent]
      )
    }
  }

  @Test func archiveNamedWithoutThePackageExtensionIsTypedByItsTopFolder() async throws {
    try await withTemporaryDirectory("export") { folder in
      let (zip, _, _) = try await export(
        ProjectPaths.sampleNotebook, to: .zip, into: folder, name: "backup.zip")
      let (text, _, plan) = try await export(zip, to: .plainText, into: folder)
      #expect(
        plan.steps.map(\.outputType) == [UTType(resolved: "com.example.notebook"), .utf8PlainText])
      #expect(text.lastPathComponent == "Notebook.txt")
    }
  }

  @Test func benchmarkCorpusPackagesRoundTrip() async throws {
    let corpus = try BenchmarkCorpus.small()
    try await withTemporaryDirectory("export") { folder in
      let cases: [(String, [ArchiveFormat])] = [
        ("mixed.examplenotebook", ArchiveFormat.allCases),
        ("pages.examplenotebook", [.zip, .tarGzip, .tarZstd]),
        ("media.examplenotebook", [.zip, .tar]),
      ]
      for (name, formats) in cases {
        let package = corpus.appendingPathComponent(name)
        let original = try treeDescription(package)
        for format in formats {
          let (archive, _, _) = try await export(package, to: format.type, into: folder)
          let restoredFolder = folder.appendingPathComponent("r-\(name)-\(format.name)")
          try FileManager.default.createDirectory(
            at: restoredFolder, withIntermediateDirectories: true)
          let (restored, _, _) = try await export(archive, to: .directory, into: restoredFolder)
          #expect(try treeDescription(restored) == original, "\(name) via \(format)")
          try FileManager.default.removeItem(at: archive)
          try FileManager.default.removeItem(at: restoredFolder)
        }
      }
    }
  }

  @Test func hostileArchiveIsRefusedAndLeavesNothing() async throws {
    try await withTemporaryDirectory("export") { folder in
      let evil = folder.appendingPathComponent("evil.zip")
      let script = """
        import zipfile, sys
        with zipfile.ZipFile(sys.argv[1], "w") as z:
            z.writestr("evil/ok.txt", "fine")
            z.writestr("../escaped.txt", "gotcha")
        """
      #expect(try runProcess("python3", ["-c", script, evil.path]).status == 0)
      let output = folder.appendingPathComponent("out")
      try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
      await #expect(throws: PackagingError.self) {
        try await export(evil, to: .directory, into: output)
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == [])
      #expect(
        !FileManager.default.fileExists(atPath: folder.appendingPathComponent("escaped.txt").path))
    }
  }
}
