import Archives
import Documents
import FolioTestSupport
import Foundation
import Notebooks
import ProgressReporting
import PropertyLists
import Testing
import UniformTypes

@Suite struct CorpusExporterTests {
  @Test func corpusNotebookTextSurvivesEveryEncodingRoundTrip() async throws {
    let pages = try BenchmarkCorpus.small().appendingPathComponent("pages.examplenotebook")
    try await withTemporaryDirectory("export") { folder in
      let (text, _, _) = try await export(pages, to: .utf8PlainText, into: folder)
      let original = try Data(contentsOf: text)
      for encoding in [TextEncoding.utf16LittleEndian, .utf16BigEndian, .latin1] {
        let type = TextEncodingExporter.type(for: encoding)
        let (encoded, _, _) = try await export(text, as: .utf8PlainText, to: type, into: folder)
        let (back, _, _) = try await export(
          encoded, as: type, to: .utf8PlainText, into: folder, name: "back-\(encoding).txt")
        #expect(try Data(contentsOf: back) == original, "\(encoding)")
      }
      // And the text becomes the notebook again, every page intact.
      let (notebook, _, _) = try await export(
        text, as: .utf8PlainText, to: UTType(resolved: "com.example.notebook"), into: folder,
        name: "Again.examplenotebook")
      #expect(
        try NotebookPackage(contentsOf: notebook).snapshot().orderedPageTexts
          == NotebookPackage(contentsOf: pages).snapshot().orderedPageTexts)
    }
  }

  @Test func corpusMetadataJSONBecomesPropertyListsAndBack() async throws {
    let corpus = try BenchmarkCorpus.small()
    try await withTemporaryDirectory("export") { folder in
      for name in ["pages", "media", "mixed"] {
        let metadata = corpus.appendingPathComponent("\(name).examplenotebook/metadata.json")
        guard FileManager.default.fileExists(atPath: metadata.path) else { continue }
        let reference = try PropertyListReader.read(contentsOf: metadata).root
        let (binary, _, _) = try await export(
          metadata, to: .binaryPropertyList, into: folder, name: "\(name).plist")
        let (xml, _, _) = try await export(
          binary, to: .xmlPropertyList, into: folder, name: "\(name)-xml.plist")
        let (json, _, _) = try await export(xml, to: .json, into: folder, name: "\(name).json")
        #expect(try PropertyListReader.read(contentsOf: binary).format == .binary)
        #expect(try PropertyListReader.read(contentsOf: json).root == reference, "\(name)")
      }
    }
  }

  @Test func cancellingAnExportLeavesNoOutputAndNoWorkFolder() async throws {
    let media = try BenchmarkCorpus.small().appendingPathComponent("media.examplenotebook")
    try await withTemporaryDirectory("export") { folder in
      let registry = notebookRegistry()
      let item = ExportItem(url: media, type: registry.identify(path: media.path))
      let plan = try ExportPlan.make(
        for: item, to: UTType(resolved: "org.tukaani.tar-xz-archive"),
        exporters: .builtIn.addingNotebookExporters(),
        registry: registry)
      let output = folder.appendingPathComponent("media.tar.xz")
      let reporter = ProgressManager(totalCount: 1)
      let task = Task {
        try await plan.run(
          to: output, progress: reporter.subprogress(assigningCount: 1))
      }
      // Cancel once bytes flow.
      let watch = CancellationWatch.cancel(task) {
        reporter.reporter.snapshot.completedByteCount > 0
      }
      await #expect(throws: CancellationError.self) { try await task.value }
      watch.stop()
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
  }
}
