import Archives
import Documents
import FolioTestSupport
import Foundation
import Notebooks
import PropertyLists
import Testing
import UniformTypes

@Suite struct NotebookPackageTests {
  @Test func sampleOpensWithPagesInPageOrderAndNoWarnings() throws {
    let notebook = try NotebookPackage(
      contentsOf: ProjectPaths.sampleNotebook, displayName: "Notebook.examplenotebook")
    #expect(notebook.title == "Field Notes")
    #expect(
      notebook.pages.map { String($0.identifier.uuidString.prefix(8)) } == [
        "0B0C7E8A", "1F6A2C94", "2A9D4E17", "3C5B8F20", "4D7E1A39", "5E8F2B4A",
      ])
    #expect(notebook.diagnostics.isEmpty)
    #expect(try notebook.pages[5].text().hasPrefix("日本語のページ"))
  }

  @Test func pageListedButMissingIsAnErrorNamingIt() throws {
    try withTemporaryDirectoryBlocking { folder in
      let copy = try copySampleNotebook(into: folder)
      try FileManager.default.removeItem(
        at: copy.appendingPathComponent("pages/2A9D4E17-C85B-4F3A-8E6D-1B7C0F2A9E73.txt"))
      let error = #expect(throws: ExportError.self) {
        try NotebookPackage(contentsOf: copy, displayName: "N")
      }
      #expect(error?.code == .missingPage)
      #expect(error?.message.contains("2A9D4E17-C85B-4F3A-8E6D-1B7C0F2A9E73") == true)
      #expect(error?.message.contains("N/pages/2A9D4E17-C85B-4F3A-8E6D-1B7C0F2A9E73.txt") == true)
    }
  }

  @Test func unlistedPageIsAWarningAndIsAppended() throws {
    try withTemporaryDirectoryBlocking { folder in
      let copy = try copySampleNotebook(into: folder)
      let extra = "00000000-0000-4000-8000-000000000001"
      try Data("stray page\n".utf8).write(to: copy.appendingPathComponent("pages/\(extra).txt"))
      let notebook = try NotebookPackage(contentsOf: copy, displayName: "N")
      #expect(notebook.pages.count == 7)
      #expect(notebook.pages.last?.identifier.uuidString == extra)
      #expect(notebook.pages.last?.isListed == false)
      #expect(notebook.diagnostics.map(\.code) == ["FOLIO-NOTEBOOK-UNLISTED-PAGE"])
      #expect(notebook.diagnostics.first?.severity == .warning)
      #expect(notebook.diagnostics.first?.message.contains("\(extra).txt") == true)
    }
  }

  @Test func malformedMetadataIsRefused() throws {
    try withTemporaryDirectoryBlocking { folder in
      let copy = try copySampleNotebook(into: folder)
      for (body, fragment) in [
        ("not json", "not valid JSON"), ("[1]", "JSON object"),
        ("{\"pageOrder\": []}", "\"title\""),
        ("{\"title\": \"x\"}", "\"pageOrder\""),
        ("{\"title\": \"x\", \"pageOrder\": [\"nope\"]}", "pageOrder[0]"),
      ] {
        try Data(body.utf8).write(to: copy.appendingPathComponent("metadata.json"))
        let error = #expect(throws: ExportError.self) {
          try NotebookPackage(contentsOf: copy, displayName: "N")
        }
        #expect(error?.code == .invalidNotebook)
        #expect(error?.message.contains(fragment) == true, "\(body)")
      }
    }
  }

  @Test func twoFilesNamingOnePageInDifferentCaseAreRefusedNamingBoth() throws {
    try withTemporaryDirectoryBlocking { folder in
      let copy = try copySampleNotebook(into: folder)
      let page = "2A9D4E17-C85B-4F3A-8E6D-1B7C0F2A9E73"
      try Data("other text\n".utf8).write(
        to: copy.appendingPathComponent("pages/\(page.lowercased()).txt"))
      let error = #expect(throws: ExportError.self) {
        try NotebookPackage(contentsOf: copy, displayName: "N")
      }
      #expect(error?.code == .duplicatePage)
      #expect(error?.message.contains("N/pages/\(page).txt") == true, "\(error?.message ?? "")")
      #expect(
        error?.message.contains("N/pages/\(page.lowercased()).txt") == true,
        "\(error?.message ?? "")")
    }
  }

  @Test func metadataPastItsLimitsIsRefusedNamingTheLimit() throws {
    try withTemporaryDirectoryBlocking { folder in
      let copy = try copySampleNotebook(into: folder)
      let small = NotebookLimits(
        maximumMetadataSize: 1 << 20, maximumTitleLength: 5, maximumPageOrderCount: 3)
      for (limits, fragment) in [
        (small, "the title is 11 bytes, more than the limit of 5"),
        (
          NotebookLimits(maximumPageOrderCount: 3),
          "pageOrder lists 6 pages, more than the limit of 3"
        ),
        (NotebookLimits(maximumMetadataSize: 100), "more than the limit of 100 bytes"),
      ] {
        let error = #expect(throws: ExportError.self) {
          try NotebookPackage(contentsOf: copy, displayName: "N", limits: limits)
        }
        #expect(error?.code == .notebookTooLarge)
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
      }
    }
  }

  @Test func repeatedPagesAreWarnedAboutUpToALimitThenCounted() throws {
    try withTemporaryDirectoryBlocking { folder in
      let copy = try copySampleNotebook(into: folder)
      let page = "2A9D4E17-C85B-4F3A-8E6D-1B7C0F2A9E73"
      let metadata = copy.appendingPathComponent("metadata.json")
      var object = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: metadata)) as? [String: Any])
      var order = try #require(object["pageOrder"] as? [String])
      order += Array(repeating: page, count: 5)
      object["pageOrder"] = order
      try JSONSerialization.data(withJSONObject: object).write(to: metadata)
      let notebook = try NotebookPackage(
        contentsOf: copy, displayName: "N", limits: NotebookLimits(maximumRepeatWarnings: 2))
      #expect(notebook.pages.count == 6)
      let repeats = notebook.diagnostics.filter { $0.code == "FOLIO-NOTEBOOK-REPEATED-PAGE" }
      #expect(repeats.count == 3)
      #expect(
        repeats.last?.message.contains("3 more repeated entries in pageOrder (5 in all)") == true)
    }
  }

  @Test func pageThatIsNotUTF8IsRefusedWithItsPosition() throws {
    try withTemporaryDirectoryBlocking { folder in
      let copy = try copySampleNotebook(into: folder)
      let page = copy.appendingPathComponent("pages/1F6A2C94-7B3E-4D8A-B21C-5E9F0A7D3B62.txt")
      try (Data("line one\nbad ".utf8) + Data([0xFF])).write(to: page)
      let notebook = try NotebookPackage(contentsOf: copy, displayName: "N")
      let error = #expect(throws: ExportError.self) { try notebook.pages[1].text() }
      #expect(error?.code == .invalidText)
      #expect(error?.location?.line == 2)
      #expect(error?.location?.column == 5)
    }
  }
}

@Suite struct NotebookFormatTests {
  private let snapshot = NotebookSnapshot(
    title: "Trip <1> & \"more\"",
    pageOrder: [
      UUID(uuidString: "11111111-1111-4111-8111-111111111111")!,
      UUID(uuidString: "22222222-2222-4222-8222-222222222222")!,
    ],
    pages: [
      UUID(uuidString: "11111111-1111-4111-8111-111111111111")!: "# not a heading\n<b>bold?</b>\n",
      UUID(uuidString: "22222222-2222-4222-8222-222222222222")!: "",
    ])

  @Test func plainTextPutsTitleFirstAndSeparatesPagesWithFormFeeds() {
    #expect(
      NotebookFormat.plainText.render(snapshot)
        == "Trip <1> & \"more\"\n\u{0C}\n# not a heading\n<b>bold?</b>\n\n\u{0C}\n\n")
  }

  @Test func markdownHasTitleHeadingAndOneSectionPerPage() {
    let markdown = NotebookFormat.markdown.render(snapshot)
    #expect(markdown.hasPrefix("# Trip \\<1\\> & \"more\"\n"))
    #expect(markdown.contains("\n## Page 1\n\n\\# not a heading\n<b>bold?</b>\n"))
    #expect(markdown.contains("\n## Page 2\n\n"))
  }

  @Test func htmlIsOneSelfContainedEscapedPage() {
    let html = NotebookFormat.html.render(snapshot)
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.contains("<title>Trip &lt;1&gt; &amp; &quot;more&quot;</title>"))
    #expect(html.contains("&lt;b&gt;bold?&lt;/b&gt;"))
    #expect(!html.contains("<b>"))
    #expect(!html.contains("src=") && !html.contains("href="))
    #expect(html.hasSuffix("</html>\n"))
  }

  @Test func jsonCarriesMetadataAndPagesAndParses() throws {
    let json = NotebookFormat.json.render(snapshot)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["title"] as? String == snapshot.title)
    #expect((object["pageOrder"] as? [String])?.count == 2)
    let pages = try #require(object["pages"] as? [[String: String]])
    #expect(pages.map { $0["text"] } == ["# not a heading\n<b>bold?</b>\n", ""])
    #expect(pages.first?["id"] == "11111111-1111-4111-8111-111111111111")
  }

  @Test func emptyNotebookStillRendersValidJSON() throws {
    let json = NotebookFormat.json.render(NotebookSnapshot(title: "E", pageTexts: []))
    #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) is [String: Any])
  }
}

@Suite struct NotebookTextParserTests {
  @Test func notebookToTextToNotebookKeepsEveryPageText() throws {
    let texts = [
      "first\n", "", "no newline at end", "\nstarts blank\n\n\nends with blank lines\n\n", "日本語\n",
    ]
    let original = NotebookSnapshot(title: "Round trip", pageTexts: texts)
    let parsed = NotebookTextParser.parse(
      NotebookFormat.plainText.render(original), fallbackTitle: "x")
    #expect(parsed.title == "Round trip")
    #expect(parsed.orderedPageTexts == texts)
  }

  @Test func sampleRoundTripsThroughPlainText() throws {
    let sample = try NotebookPackage(contentsOf: ProjectPaths.sampleNotebook, displayName: "N")
      .snapshot()
    let parsed = NotebookTextParser.parse(
      NotebookFormat.plainText.render(sample), fallbackTitle: "x")
    #expect(parsed.title == sample.title)
    #expect(parsed.orderedPageTexts == sample.orderedPageTexts)
  }

  @Test func blankLinesSeparatePagesWhenThereIsNoFormFeed() {
    let parsed = NotebookTextParser.parse(
      "one\nstill one\n\n\n  \ntwo\n\nthree", fallbackTitle: "notes")
    #expect(parsed.title == "notes")
    #expect(parsed.orderedPageTexts == ["one\nstill one\n", "two\n", "three\n"])
  }
}

@Suite struct NotebookDocumentTests {
  /// Reads a notebook with its document's reader, as a document host does.
  private func read(_ url: URL) async throws -> NotebookSnapshot {
    let reader = NotebookDocument().reader(
      configuration: DocumentReadConfiguration(contentType: NotebookDocument.notebookType))
    return try await reader.read(from: url, progress: .untracked())
  }

  /// Writes a notebook with its document's writer.
  private func write(_ snapshot: NotebookSnapshot, to url: URL) async throws {
    let writer = NotebookDocument().writer(
      configuration: DocumentWriteConfiguration(contentType: NotebookDocument.notebookType))
    try await writer.write(snapshot: snapshot, to: url, previous: nil, progress: .untracked())
  }

  @Test func readerAndWriterRoundTripThePackageAndItsMetadataLayout() async throws {
    try await withTemporaryDirectory("export") { folder in
      let sample = try await read(ProjectPaths.sampleNotebook)
      let target = folder.appendingPathComponent("Copy.examplenotebook")
      try await write(sample, to: target)
      let again = try await read(target)
      #expect(again == sample)
      let metadata = try String(
        contentsOf: target.appendingPathComponent("metadata.json"), encoding: .utf8)
      let original = try String(
        contentsOf: ProjectPaths.sampleNotebook.appendingPathComponent("metadata.json"),
        encoding: .utf8)
      #expect(
        metadata.trimmingCharacters(in: .newlines) == original.trimmingCharacters(in: .newlines))
    }
  }

  @Test func writingOverTheNotebookRewritesOnlyChangedPagesAndRemovesDroppedOnes() async throws {
    try await withTemporaryDirectory("export") { folder in
      let first = NotebookSnapshot(title: "T", pageTexts: ["a\n", "b\n", "c\n"])
      let target = folder.appendingPathComponent("N.examplenotebook")
      try await write(first, to: target)
      let pageURL = { (id: UUID) in target.appendingPathComponent("pages/\(id.uuidString).txt") }
      let marker = Date(timeIntervalSince1970: 1_000_000)
      for id in first.pageOrder {
        try FileManager.default.setAttributes(
          [.modificationDate: marker], ofItemAtPath: pageURL(id).path)
      }
      var second = first
      second.pages[first.pageOrder[1]] = "B changed\n"
      second.pageOrder.removeLast()
      second.pages[first.pageOrder[2]] = nil
      try await write(second, to: target)

      let date = { (id: UUID) in
        try FileManager.default.attributesOfItem(atPath: pageURL(id).path)[.modificationDate]
          as? Date
      }
      #expect(try date(first.pageOrder[0]) == marker)
      #expect(try date(first.pageOrder[1]) != marker)
      #expect(!FileManager.default.fileExists(atPath: pageURL(first.pageOrder[2]).path))
      #expect(try await read(target) == second)
    }
  }

  @Test func readerKeepsUnlistedPagesAndReportsThem() async throws {
    try await withTemporaryDirectory("export") { folder in
      let copy = try copySampleNotebook(into: folder)
      try Data("extra\n".utf8).write(
        to: copy.appendingPathComponent("pages/00000000-0000-4000-8000-000000000009.txt"))
      let snapshot = try await read(copy)
      #expect(snapshot.pageOrder.count == 7)
      #expect(snapshot.diagnostics.map(\.code) == ["FOLIO-NOTEBOOK-UNLISTED-PAGE"])
    }
  }

  @Test func membersOfMetadataTheSampleDoesNotKnowSurviveASave() async throws {
    try await withTemporaryDirectory("export") { folder in
      let copy = try copySampleNotebook(into: folder)
      let metadataURL = copy.appendingPathComponent("metadata.json")
      var text = try String(contentsOf: metadataURL, encoding: .utf8)
      text = text.replacingOccurrences(
        of: "\"title\"", with: "\"author\": {\"name\": \"Ada\", \"year\": 1843},\n  \"title\"")
      try Data(text.utf8).write(to: metadataURL)
      let snapshot = try await read(copy)
      #expect(
        snapshot.metadata.otherMembers["author"]
          == .object(["name": .string("Ada"), "year": .number("1843")]))
      let target = folder.appendingPathComponent("Saved.examplenotebook")
      try await write(snapshot, to: target)
      let saved =
        try JSONSerialization.jsonObject(
          with: Data(contentsOf: target.appendingPathComponent("metadata.json"))) as? [String: Any]
      #expect((saved?["author"] as? [String: Any])?["name"] as? String == "Ada")
      #expect(try await read(target) == snapshot)
    }
  }

  @Test func theDocumentWritesItsSingleFileFormsWhenAskedForTheirTypes() async throws {
    try await withTemporaryDirectory("export") { folder in
      let sample = try await read(ProjectPaths.sampleNotebook)
      for format in NotebookFormat.allCases {
        let type = try #require(UTType(format.typeIdentifier))
        #expect(NotebookDocument.writableContentTypes.contains(type))
        let writer = NotebookDocument().writer(
          configuration: DocumentWriteConfiguration(contentType: type))
        let target = folder.appendingPathComponent("out-\(format.rawValue)")
        try await writer.write(snapshot: sample, to: target, previous: nil, progress: .untracked())
        #expect(try String(contentsOf: target, encoding: .utf8) == format.render(sample))
      }
    }
  }
}

final class DiagnosticBox: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [Diagnostic] = []
  func append(_ diagnostic: Diagnostic) { lock.withLock { items.append(diagnostic) } }
  var all: [Diagnostic] { lock.withLock { items } }
}
