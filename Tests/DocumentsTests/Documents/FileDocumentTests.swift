import Archives
import Documents
import FolioTestSupport
import Foundation
import Observation
import Synchronization
import Testing
import UniformTypes

// SwiftUI's value and reference document protocols, hosted by DocumentSession as
// DocumentGroup hosts them:
// https://developer.apple.com/documentation/swiftui/filedocument
// https://developer.apple.com/documentation/swiftui/referencefiledocument

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

/// A plain-text value document, as SwiftUI's FileDocument article writes one.
struct PlainTextFile: FileDocument {
  static let readableContentTypes = [UTType.plainText]
  var text: String

  init(text: String = "") { self.text = text }

  init(configuration: ReadConfiguration) throws {
    guard let data = configuration.file.regularFileContents else {
      throw CocoaError(.fileReadCorruptFile)
    }
    text = String(decoding: data, as: UTF8.self)
  }

  func fileWrapper(configuration: WriteConfiguration) throws -> FileWrapper {
    FileWrapper(regularFileWithContents: Data(text.utf8))
  }
}

/// A package value document that updates the existing wrapper, replacing only the pages
/// that changed (the pattern SwiftUI's `fileWrapper(configuration:)` documents).
struct PagesFile: FileDocument {
  static let readableContentTypes = [UTType.package]
  var pages: [String: String] = [:]

  init(pages: [String: String]) { self.pages = pages }

  init(configuration: ReadConfiguration) throws {
    for (name, wrapper) in configuration.file.fileWrappers ?? [:] {
      pages[name] = String(decoding: wrapper.regularFileContents ?? Data(), as: UTF8.self)
    }
  }

  func fileWrapper(configuration: WriteConfiguration) throws -> FileWrapper {
    let root = configuration.existingFile ?? FileWrapper(directoryWithFileWrappers: [:])
    for (name, text) in pages {
      if let old = root.fileWrappers?[name], old.regularFileContents == Data(text.utf8) {
        continue
      }
      if let old = root.fileWrappers?[name] { root.removeFileWrapper(old) }
      root.addRegularFile(withContents: Data(text.utf8), preferredFilename: name)
    }
    return root
  }
}

/// A reference document: a class whose saves serialize a snapshot.
final class CounterFile: ReferenceFileDocument {
  static let readableContentTypes = [UTType.plainText]
  private let state = Mutex(0)
  var count: Int {
    get { state.withLock { $0 } }
    set { state.withLock { $0 = newValue } }
  }

  init(count: Int) { self.count = count }

  init(configuration: ReadConfiguration) throws {
    let text = String(decoding: configuration.file.regularFileContents ?? Data(), as: UTF8.self)
    guard let value = Int(text) else { throw CocoaError(.fileReadCorruptFile) }
    count = value
  }

  func snapshot(contentType: UTType) throws -> Int { count }

  func fileWrapper(snapshot: Int, configuration: WriteConfiguration) throws -> FileWrapper {
    FileWrapper(regularFileWithContents: Data(String(snapshot).utf8))
  }
}

@Suite struct FileDocumentTests {
  @Test @MainActor func aValueDocumentOpensEditsAndSaves() async throws {
    try await inTemporaryFolder("file-document") { folder in
      let file = folder.appendingPathComponent("note.txt")
      try Data("Hello".utf8).write(to: file)
      let session = try await DocumentSession(contentsOf: file, documentType: PlainTextFile.self)
      #expect(session.document.document.text == "Hello")
      session.document.document.text += ", Linux"
      try await session.save()
      #expect(try String(contentsOf: file, encoding: .utf8) == "Hello, Linux")
      #expect(PlainTextFile.writableContentTypes == [.plainText])
    }
  }

  @Test @MainActor func aNewValueDocumentSavesToAFile() async throws {
    try await inTemporaryFolder("file-document-new") { folder in
      let session = DocumentSession(newDocument: PlainTextFile(text: "Fresh"))
      #expect(session.contentType == .plainText)
      let file = folder.appendingPathComponent("fresh.txt")
      try await session.save(to: file, contentType: .plainText)
      #expect(try String(contentsOf: file, encoding: .utf8) == "Fresh")
      #expect(session.fileURL == file.standardizedFileURL)
    }
  }

  @Test @MainActor func aPackageDocumentGetsItsExistingFileAndKeepsUnchangedPages() async throws {
    try await inTemporaryFolder("file-document-package") { folder in
      let package = folder.appendingPathComponent("Pages.pkg")
      let session = DocumentSession(
        newDocument: PagesFile(pages: ["a.txt": "A", "b.txt": "B"]), contentType: .package)
      try await session.save(to: package, contentType: .package)
      let before = inode(package.appendingPathComponent("a.txt"))
      session.document.document.pages["b.txt"] = "B, edited"
      try await session.save()
      #expect(inode(package.appendingPathComponent("a.txt")) == before)
      #expect(
        try String(contentsOf: package.appendingPathComponent("b.txt"), encoding: .utf8)
          == "B, edited")
      let reread = try await DocumentSession(
        contentsOf: package, documentType: PagesFile.self, contentType: .package)
      #expect(reread.document.document.pages == ["a.txt": "A", "b.txt": "B, edited"])
    }
  }

  @Test @MainActor func aValueDocumentThatCannotReadTheFileThrows() async throws {
    try await inTemporaryFolder("file-document-bad") { folder in
      let package = folder.appendingPathComponent("Folder.pkg")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
      await #expect(throws: CocoaError.self) {
        _ = try await DocumentSession(
          contentsOf: package, documentType: PlainTextFile.self, contentType: .plainText)
      }
    }
  }

  @Test @MainActor func aReferenceDocumentSavesItsSnapshotAndRevertsToANewObject() async throws {
    try await inTemporaryFolder("reference-document") { folder in
      let file = folder.appendingPathComponent("count.txt")
      try Data("41".utf8).write(to: file)
      let session = try await DocumentSession(contentsOf: file, documentType: CounterFile.self)
      let first = session.document.document
      #expect(first.count == 41)
      first.count += 1
      try await session.save()
      #expect(try String(contentsOf: file, encoding: .utf8) == "42")
      first.count = 0
      try await session.revert()
      #expect(session.document.document.count == 42)
      #expect(session.document.document !== first)
    }
  }

  @Test @MainActor func aNewReferenceDocumentSavesToAFile() async throws {
    try await inTemporaryFolder("reference-document-new") { folder in
      let session = DocumentSession(newDocument: CounterFile(count: 7))
      let file = folder.appendingPathComponent("seven.txt")
      try await session.save(to: file, contentType: .plainText)
      #expect(try String(contentsOf: file, encoding: .utf8) == "7")
    }
  }

  @Test @MainActor func editingTheHostedValueIsObserved() async throws {
    let host = FileDocumentHost(PlainTextFile(text: "a"))
    let changed = Mutex(false)
    withObservationTracking {
      _ = host.document.text
    } onChange: {
      changed.withLock { $0 = true }
    }
    host.document.text = "b"
    #expect(changed.withLock { $0 })
  }
}
