import Folio
import FolioTestSupport
import Foundation
import Observation
import Synchronization
import Testing

@testable import SeedSamples

// Folio has a notebook document of its own; these tests use the seed's.
typealias NotebookDocument = SeedSamples.NotebookDocument
typealias NotebookMetadata = SeedSamples.NotebookMetadata
typealias NotebookSnapshot = SeedSamples.NotebookSnapshot

/// Registers the sample app's Info.plist, which declares `com.example.notebook`, once:
/// as an app's Info.plist declares its types to Apple's system.
private let notebookTypeRegistered: Bool = {
  _ = try? UTType.registerDeclarations(contentsOf: ProjectPaths.sampleInfoPlist)
  return true
}()

@MainActor
private func inTemporaryFolder(_ name: String, _ body: @MainActor (URL) async throws -> Void)
  async throws
{
  let url = try makeTemporaryDirectory(name)
  defer { removeTree(url) }
  try await body(url)
}

private func inode(_ url: URL) -> UInt64 {
  var info = stat()
  lstat(url.path, &info)
  return UInt64(info.st_ino)
}

private func pageInodes(_ package: URL) throws -> [String: UInt64] {
  let pages = package.appendingPathComponent("pages")
  var result: [String: UInt64] = [:]
  for name in try FileManager.default.contentsOfDirectory(atPath: pages.path) {
    result[name] = inode(pages.appendingPathComponent(name))
  }
  return result
}

/// The seed's notebook, read as the seed reads it and written by the seed's incremental writer.
@Observable
final class IncrementalNotebook: Document {
  static let readableContentTypes: [UTType] = [.notebook]
  var metadata = NotebookMetadata(title: "", pageOrder: [])
  var pages: [UUID: String] = [:]

  func reader(configuration: sending ReadConfiguration)
    -> sending FileWrapperDocumentReader<NotebookSnapshot>
  {
    NotebookDocument().reader(configuration: configuration)
  }

  @MainActor
  func apply(snapshot: sending NotebookSnapshot, previous: sending NotebookSnapshot?) async throws {
    metadata = snapshot.metadata
    pages = snapshot.pages
  }

  func writer(configuration: sending WriteConfiguration) -> sending IncrementalNotebookWriter {
    IncrementalNotebookWriter()
  }

  @MainActor
  func snapshot(contentType: UTType) async throws -> sending NotebookSnapshot {
    NotebookSnapshot(metadata: metadata, pages: pages)
  }
}

/// A one-file document of raw bytes, written by the seed's chunked media writer.
@Observable
final class MediaDocument: Document {
  static let readableContentTypes: [UTType] = [.data]
  var payload = Data()

  struct Reader: DocumentReader {
    @concurrent
    func read(from source: URL, progress: consuming Subprogress) async throws
      -> sending MediaSnapshot
    {
      MediaSnapshot(payload: try Data(contentsOf: source))
    }
  }

  func reader(configuration: sending ReadConfiguration) -> sending Reader { Reader() }

  @MainActor
  func apply(snapshot: sending MediaSnapshot, previous: sending MediaSnapshot?) async throws {
    payload = snapshot.payload
  }

  func writer(configuration: sending WriteConfiguration) -> sending MediaWriter { MediaWriter() }

  @MainActor
  func snapshot(contentType: UTType) async throws -> sending MediaSnapshot {
    MediaSnapshot(payload: payload)
  }
}

@Suite struct SeedSamplesTests {
  @Test @MainActor func theTextDocumentOpensEditsAndSaves() async throws {
    try await inTemporaryFolder("seed-text") { folder in
      let file = folder.appendingPathComponent("Notes.txt")
      try Data("Hello\n".utf8).write(to: file)
      let session = try DocumentSession(contentsOf: file) { configuration in
        TextDocument(configuration: configuration)
      }
      try await session.open()
      #expect(session.document.text == "Hello\n")
      #expect(session.document.configuration.fileURL == file.standardizedFileURL)
      session.document.text = "Hello, Linux\n"
      try await session.save()
      #expect(try String(contentsOf: file, encoding: .utf8) == "Hello, Linux\n")
      #expect(TextDocument.writableContentTypes == [.plainText])
    }
  }

  @Test @MainActor func theNotebookDocumentReadsTheSampleAndSavesAnEditedPage() async throws {
    #expect(notebookTypeRegistered)
    #expect(UTType.notebook.isDeclared)
    #expect(UTType.notebook.conforms(to: .package))
    try await inTemporaryFolder("seed-notebook") { folder in
      let package = folder.appendingPathComponent("Notebook.examplenotebook")
      try FileManager.default.copyItem(at: ProjectPaths.sampleNotebook, to: package)
      // The type comes from the name, as the registered declarations say.
      let session = try DocumentSession(contentsOf: package) { _ in NotebookDocument() }
      try await session.open()
      let document = session.document
      #expect(document.metadata.title == "Field Notes")
      #expect(document.pages.count == 6)

      let before = try pageInodes(package)
      let edited = document.metadata.pageOrder[0]
      document.pages[edited] = "Rewritten by the seed's writer.\n"
      try await session.save()

      // The seed's writer builds a fresh tree; the pages it did not change keep their files.
      let after = try pageInodes(package)
      #expect(Set(after.keys) == Set(before.keys))
      for (name, number) in after {
        #expect((number == before[name]) == !name.hasPrefix(edited.uuidString), "\(name)")
      }
      let reread = try DocumentSession(contentsOf: package) { _ in NotebookDocument() }
      try await reread.open()
      #expect(reread.document.pages == document.pages)
      #expect(reread.document.metadata.pageOrder == document.metadata.pageOrder)
    }
  }

  @Test func theContentTypesOfSeed003ResolveAgainstTheRegistry() {
    #expect(notebookTypeRegistered)
    #expect(NotebookContentTypes.readableContentTypes == [.notebook])
    #expect(NotebookContentTypes.writableContentTypes == [.notebook, .utf8PlainText])
    #expect(UTType.notebook.preferredFilenameExtension == "examplenotebook")
  }

  @Test @MainActor func theIncrementalWriterWritesOnlyTheChangedPage() async throws {
    #expect(notebookTypeRegistered)
    try await inTemporaryFolder("seed-incremental") { folder in
      let package = folder.appendingPathComponent("Notebook.examplenotebook")
      try FileManager.default.copyItem(at: ProjectPaths.sampleNotebook, to: package)
      let session = try DocumentSession(contentsOf: package) { _ in IncrementalNotebook() }
      try await session.open()
      let before = try pageInodes(package)
      let edited = session.document.metadata.pageOrder[3]
      session.document.pages[edited] = "Only this page is written.\n"
      // The session passes the snapshot read as `previous`, so one page counts as changed.
      try await session.save()
      let after = try pageInodes(package)
      for (name, number) in after {
        #expect((number == before[name]) == !name.hasPrefix(edited.uuidString), "\(name)")
      }
      #expect(
        try String(
          contentsOf: package.appendingPathComponent("pages/\(edited.uuidString).txt"),
          encoding: .utf8) == "Only this page is written.\n")
    }
  }

  // A package document's writer writes into a destination folder the host has created, on
  // the first save as on every other (SwiftUI's DocumentGroup does so; the seeds' incremental
  // writer relies on it):
  // https://developer.apple.com/documentation/swiftui/documentwriter/write(snapshot:to:previous:progress:)
  @Test @MainActor func theIncrementalWriterSavesANewNeverSavedNotebook() async throws {
    #expect(notebookTypeRegistered)
    try await inTemporaryFolder("seed-incremental-new") { folder in
      let session = DocumentSession(newDocumentOf: .notebook) { _ in IncrementalNotebook() }
      let first = UUID()
      let second = UUID()
      session.document.metadata = NotebookMetadata(title: "New", pageOrder: [first, second])
      session.document.pages = [first: "One\n", second: "Two\n"]
      let package = folder.appendingPathComponent("New.examplenotebook")
      try await session.save(to: package, contentType: .notebook)
      #expect(session.fileURL == package.standardizedFileURL)
      let reread = try DocumentSession(contentsOf: package) { _ in NotebookDocument() }
      try await reread.open()
      #expect(reread.document.pages == [first: "One\n", second: "Two\n"])
      #expect(reread.document.metadata.title == "New")

      // Save As of the saved document: the writer again gets an empty folder, and writes
      // every page (the previous snapshot is that of another file).
      let copy = folder.appendingPathComponent("Copy.examplenotebook")
      try await session.save(to: copy, contentType: .notebook)
      #expect(
        try FileManager.default.contentsOfDirectory(
          atPath: copy.appendingPathComponent("pages").path
        ).count == 2)
      // A save in place after that still writes only what changed.
      session.document.pages[first] = "One, edited\n"
      let before = try pageInodes(copy)
      try await session.save()
      let after = try pageInodes(copy)
      #expect(after["\(second.uuidString).txt"] == before["\(second.uuidString).txt"])
      #expect(after["\(first.uuidString).txt"] != before["\(first.uuidString).txt"])
    }
  }

  @Test @MainActor func theSeedNotebookWriterSavesANewNeverSavedNotebook() async throws {
    #expect(notebookTypeRegistered)
    try await inTemporaryFolder("seed-notebook-new") { folder in
      let session = DocumentSession(newDocumentOf: .notebook) { _ in NotebookDocument() }
      let page = try #require(session.document.metadata.pageOrder.first)
      session.document.pages[page] = "First words.\n"
      let package = folder.appendingPathComponent("Fresh.examplenotebook")
      try await session.save(to: package, contentType: .notebook)
      let reread = try DocumentSession(contentsOf: package) { _ in NotebookDocument() }
      try await reread.open()
      #expect(reread.document.pages == [page: "First words.\n"])
    }
  }

  @Test @MainActor func theTextAndMediaWritersSaveNewDocuments() async throws {
    try await inTemporaryFolder("seed-flat-new") { folder in
      let text = DocumentSession(newDocumentOf: .plainText) { configuration in
        TextDocument(configuration: configuration)
      }
      text.document.text = "New note\n"
      let file = folder.appendingPathComponent("New.txt")
      try await text.save(to: file, contentType: .plainText)
      #expect(try String(contentsOf: file, encoding: .utf8) == "New note\n")
      #expect(text.document.configuration.fileURL == file.standardizedFileURL)

      let media = DocumentSession(newDocumentOf: .data) { _ in MediaDocument() }
      media.document.payload = Data(repeating: 7, count: 200_000)
      let clip = folder.appendingPathComponent("clip.bin")
      try await media.save(to: clip, contentType: .data)
      #expect(try Data(contentsOf: clip) == Data(repeating: 7, count: 200_000))
    }
  }

  @Test @MainActor func theMediaWriterWritesTheWholePayloadInChunks() async throws {
    try await inTemporaryFolder("seed-media") { folder in
      let file = folder.appendingPathComponent("clip.bin")
      try Data([1, 2, 3]).write(to: file)
      let session = try DocumentSession(contentsOf: file, contentType: .data) { _ in
        MediaDocument()
      }
      try await session.open()
      let payload = Data((0..<(9 * 1024 * 1024 + 17)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
      session.document.payload = payload
      try await session.save()
      #expect(try Data(contentsOf: file) == payload)
    }
  }

  @Test @MainActor func readingMetadataOnDemandWaitsForASaveInProgress() async throws {
    try await inTemporaryFolder("seed-coordinator") { folder in
      let package = folder.appendingPathComponent("Notebook.examplenotebook")
      try FileManager.default.copyItem(at: ProjectPaths.sampleNotebook, to: package)
      let document = TextDocument(configuration: URLDocumentConfiguration(fileURL: package))
      let writer = try await PackageLock.acquire(
        .exclusive, on: package, options: LockOptions(timeout: .zero))
      let start = ContinuousClock.now
      Task.detached {
        try await Task.sleep(for: .milliseconds(400))
        writer.release()
      }
      readMetadataOnDemand(document: document, packageURL: package)
      #expect(ContinuousClock.now - start >= .milliseconds(350))
    }
  }

  @Test func folioProgressTypesAreNameableThroughTheFolioModule() {
    // What a program writes when its Foundation declares a ProgressManager of its own.
    let manager: Folio.ProgressManager = Folio.ProgressManager(totalCount: 2)
    let share: Folio.Subprogress = manager.subprogress(assigningCount: 2)
    let child = share.start(totalCount: 4)
    child.complete(count: 4)
    #expect(manager.fractionCompleted == 1)
  }
}
