import Archives
import Documents
import FolioSystem
import FolioTestSupport
import Foundation
import Notebooks
import Testing
import UniformTypes

/// Plans and runs an export of `input` to `target` into `folder`, returning the output URL and result.
func export(
  _ input: URL, as type: TypeIdentifier? = nil, to target: TypeIdentifier, into folder: URL,
  name: String? = nil, registry: TypeRegistry = notebookRegistry(), overwrite: Bool = false
) async throws -> (URL, ExportResult, ExportPlan) {
  let item = ExportItem(
    url: input, type: type ?? registry.identify(path: input.path),
    displayName: input.lastPathComponent)
  let plan = try ExportPlan.make(
    for: item, to: target, exporters: .builtIn.addingNotebookExporters(), registry: registry)
  let output = folder.appendingPathComponent(name ?? plan.defaultOutputName)
  let result = try await plan.run(to: output, overwrite: overwrite, progress: .untracked())
  return (output, result, plan)
}

@Suite struct NotebookExporterTests {
  @Test func sampleToEveryFormMatchesTheInMemoryRendering() async throws {
    let snapshot = try NotebookPackage(contentsOf: ProjectPaths.sampleNotebook, displayName: "N")
      .snapshot()
    try await withTemporaryDirectory("export") { folder in
      for format in NotebookFormat.allCases {
        let (output, result, plan) = try await export(
          ProjectPaths.sampleNotebook, to: TypeIdentifier(format.typeIdentifier), into: folder)
        #expect(plan.steps.count == 1)
        #expect(result.diagnostics.isEmpty)
        #expect(try String(contentsOf: output, encoding: .utf8) == format.render(snapshot))
      }
      #expect(
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
          == ["Notebook.txt", "Notebook.md", "Notebook.html", "Notebook.json"])
    }
  }

  @Test func notebookToTextToNotebookKeepsEveryPage() async throws {
    try await withTemporaryDirectory("export") { folder in
      let (text, _, _) = try await export(ProjectPaths.sampleNotebook, to: .plainText, into: folder)
      let (back, _, _) = try await export(
        text, to: "com.example.notebook", into: folder, name: "Back.examplenotebook")
      let original = try NotebookPackage(contentsOf: ProjectPaths.sampleNotebook).snapshot()
      let again = try NotebookPackage(contentsOf: back).snapshot()
      #expect(again.title == original.title)
      #expect(again.orderedPageTexts == original.orderedPageTexts)
    }
  }

  @Test func benchmarkPagesNotebookExportsEveryPage() async throws {
    let corpus = try BenchmarkCorpus.small()
    let pages = corpus.appendingPathComponent("pages.examplenotebook")
    let notebook = try NotebookPackage(contentsOf: pages)
    try await withTemporaryDirectory("export") { folder in
      for format in NotebookFormat.allCases {
        let (output, _, _) = try await export(
          pages, to: TypeIdentifier(format.typeIdentifier), into: folder)
        let size = try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int ?? 0
        #expect(size > Int(notebook.pages.count) * 1024)
      }
      let (json, _, _) = try await export(pages, to: .json, into: folder, name: "check.json")
      let object = try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any]
      #expect((object?["pages"] as? [Any])?.count == notebook.pages.count)
      let (text, _, _) = try await export(pages, to: .plainText, into: folder, name: "check.txt")
      let parsed = NotebookTextParser.parse(
        try String(contentsOf: text, encoding: .utf8), fallbackTitle: "x")
      #expect(parsed.orderedPageTexts == (try notebook.snapshot().orderedPageTexts))
    }
  }

  @Test func notebookWithoutPageOrderIsRefused() async throws {
    let media = try BenchmarkCorpus.small().appendingPathComponent("media.examplenotebook")
    try await withTemporaryDirectory("export") { (folder: URL) async throws in
      let error = await #expect(throws: ExportError.self) {
        try await export(media, to: .plainText, into: folder)
      }
      #expect(error?.code == .invalidNotebook)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
  }

  @Test func missingPageFailsTheExportAndLeavesNothingBehind() async throws {
    try await withTemporaryDirectory("export") { folder in
      let copy = try copySampleNotebook(into: folder)
      try FileManager.default.removeItem(
        at: copy.appendingPathComponent("pages/4D7E1A39-F62C-4B8D-A05F-3E9B2C4D1A95.txt"))
      let error = await #expect(throws: ExportError.self) {
        try await export(copy, to: .html, into: folder)
      }
      #expect(error?.code == .missingPage)
      #expect(error?.message.contains("4D7E1A39-F62C-4B8D-A05F-3E9B2C4D1A95") == true)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path) == [
          "Notebook.examplenotebook"
        ])
    }
  }

  @Test func unlistedPageIsAppendedWithAWarning() async throws {
    try await withTemporaryDirectory("export") { folder in
      let copy = try copySampleNotebook(into: folder)
      try Data("late addition\n".utf8).write(
        to: copy.appendingPathComponent("pages/FFFFFFFF-0000-4000-8000-000000000000.txt"))
      let (output, result, _) = try await export(copy, to: .plainText, into: folder)
      #expect(result.diagnostics.map(\.code) == ["FOLIO-NOTEBOOK-UNLISTED-PAGE"])
      #expect(
        try String(contentsOf: output, encoding: .utf8).hasSuffix("\u{0C}\nlate addition\n\n"))
    }
  }

  @Test func jsonCarriesTheOtherMetadataKeys() async throws {
    try await withTemporaryDirectory("export") { folder in
      let copy = try copySampleNotebook(into: folder)
      let metadataURL = copy.appendingPathComponent("metadata.json")
      var metadata = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: metadataURL)) as? [String: Any])
      metadata["author"] = "Ada / Lovelace"
      metadata["tags"] = ["field", "notes"]
      try JSONSerialization.data(withJSONObject: metadata).write(to: metadataURL)
      let (output, _, _) = try await export(copy, to: .json, into: folder)
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
      let other = try #require(object["otherMetadata"] as? [String: Any])
      #expect(other["author"] as? String == "Ada / Lovelace")
      #expect(other["tags"] as? [String] == ["field", "notes"])
      #expect(other["title"] == nil)
      #expect((object["pages"] as? [Any])?.count == 6)
    }
  }

  @Test func existingOutputIsKeptUnlessOverwriting() async throws {
    try await withTemporaryDirectory("export") { folder in
      try Data("mine".utf8).write(to: folder.appendingPathComponent("Notebook.txt"))
      let error = await #expect(throws: ExportError.self) {
        try await export(ProjectPaths.sampleNotebook, to: .plainText, into: folder)
      }
      #expect(error?.code == .outputExists)
      #expect(
        try String(contentsOf: folder.appendingPathComponent("Notebook.txt"), encoding: .utf8)
          == "mine")
      _ = try await export(
        ProjectPaths.sampleNotebook, to: .plainText, into: folder, overwrite: true)
      #expect(
        try String(contentsOf: folder.appendingPathComponent("Notebook.txt"), encoding: .utf8)
          .hasPrefix("Field Notes\n"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Notebook.txt"])
    }
  }
}

@Suite struct TextEncodingExporterTests {
  @Test func chainsNotebookToUTF16AndBackToUTF8() async throws {
    try await withTemporaryDirectory("export") { folder in
      let (utf16, _, plan) = try await export(
        ProjectPaths.sampleNotebook, to: .utf16PlainText, into: folder)
      #expect(plan.steps.map(\.exporter.name) == ["notebook-to-text", "encode-utf16"])
      let bytes = try Data(contentsOf: utf16)
      #expect(bytes.prefix(2) == Data([0xFF, 0xFE]))
      let (utf8, _, _) = try await export(
        utf16, as: .utf16PlainText, to: .utf8PlainText, into: folder, name: "back.txt")
      let snapshot = try NotebookPackage(contentsOf: ProjectPaths.sampleNotebook).snapshot()
      #expect(
        try String(contentsOf: utf8, encoding: .utf8) == NotebookFormat.plainText.render(snapshot))
    }
  }

  @Test func lossyLatin1ExportIsRefusedAndWritesNothing() async throws {
    try await withTemporaryDirectory("export") { folder in
      let input = folder.appendingPathComponent("notes.txt")
      try Data("café\nprice: 5 €\n".utf8).write(to: input)
      let error = await #expect(throws: ExportError.self) {
        try await export(input, to: ExportTypes.latin1PlainText, into: folder)
      }
      #expect(error?.code == .lossyConversion)
      #expect(error?.location == SourceLocation(file: "notes.txt", line: 2, column: 10))
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"])
    }
  }

  @Test func latin1ExportOfFittingTextMatchesFoundation() async throws {
    try await withTemporaryDirectory("export") { folder in
      let input = folder.appendingPathComponent("notes.txt")
      let text = "Ærøskøbing, façade, naïve\n"
      try Data(text.utf8).write(to: input)
      let (output, _, _) = try await export(input, to: ExportTypes.latin1PlainText, into: folder)
      #expect(output.lastPathComponent == "notes-latin1.txt")
      #expect(try Data(contentsOf: output) == text.data(using: .isoLatin1))
    }
  }

  @Test func exportingOntoTheInputIsRefused() async throws {
    try await withTemporaryDirectory("export") { folder in
      let input = folder.appendingPathComponent("notes.txt")
      try Data("x\n".utf8).write(to: input)
      let error = await #expect(throws: ExportError.self) {
        try await export(
          input, to: .utf8PlainText, into: folder, name: "notes.txt", overwrite: true)
      }
      #expect(error?.code == .outputIsInput)
      #expect(try String(contentsOf: input, encoding: .utf8) == "x\n")
    }
  }
}
