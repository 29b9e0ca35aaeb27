import Archives
import Documents
import FolioTestSupport
import Foundation
import Notebooks
import Observation
import ProgressReporting
import Testing
import UniformTypes

private func inodeAndTime(_ url: URL) -> (UInt64, Int, Int) {
  var info = stat()
  lstat(url.path, &info)
  return (UInt64(info.st_ino), info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
}

/// A fresh folder for a main-actor test, removed afterwards.
@MainActor
private func inTemporaryFolder(_ name: String, _ body: @MainActor (URL) async throws -> Void)
  async throws
{
  let url = try makeTemporaryDirectory(name)
  defer { removeTree(url) }
  try await body(url)
}

/// Every regular file of a package with its inode and modification time.
private func fileStates(_ package: URL) throws -> [String: (UInt64, Int, Int)] {
  var states: [String: (UInt64, Int, Int)] = [:]
  let walker = FileManager.default.enumerator(atPath: package.path)
  while let relative = walker?.nextObject() as? String {
    let url = package.appendingPathComponent(relative)
    var info = stat()
    lstat(url.path, &info)
    if info.st_mode & S_IFMT == S_IFREG { states[relative] = inodeAndTime(url) }
  }
  return states
}

/// A one-file text document whose reader and writer a test can make slow or fail.
@Observable
final class NoteDocument: Document {
  static let readableContentTypes: [UTType] = [.plainText]

  var text = ""
  var appliedPrevious: [String?] = []
  let failWrite: Bool
  let readDelay: Duration

  init(failWrite: Bool = false, readDelay: Duration = .zero) {
    self.failWrite = failWrite
    self.readDelay = readDelay
  }

  struct Reader: DocumentReader {
    let delay: Duration
    @concurrent
    func read(from source: URL, progress: consuming Subprogress) async throws -> sending String {
      let manager = progress.start(totalCount: 1)
      if delay > .zero { try await Task.sleep(for: delay) }
      let text = try String(contentsOf: source, encoding: .utf8)
      manager.complete(count: 1)
      return text
    }
  }

  struct Writer: DocumentWriter {
    let fail: Bool
    @concurrent
    func write(
      snapshot: sending String, to destination: URL, previous: sending String?,
      progress: consuming Subprogress
    ) async throws {
      let manager = progress.start(totalCount: 1)
      try Data(snapshot.utf8).write(to: destination)
      if fail { throw CocoaError(.fileWriteUnknown) }
      manager.complete(count: 1)
    }
  }

  func reader(configuration: sending ReadConfiguration) -> sending Reader {
    Reader(delay: readDelay)
  }

  @MainActor
  func apply(snapshot: sending String, previous: sending String?) async throws {
    appliedPrevious.append(previous)
    text = snapshot
  }

  func writer(configuration: sending WriteConfiguration) -> sending Writer {
    Writer(fail: failWrite)
  }

  @MainActor
  func snapshot(contentType: UTType) async throws -> sending String { text }
}

@Suite struct DocumentSessionTests {
  @Test @MainActor func savingAnEditedPageRewritesThatPageAlone() async throws {
    try await inTemporaryFolder("session-save") { folder in
      let package = folder.appendingPathComponent("Notebook.examplenotebook")
      try FileManager.default.copyItem(at: ProjectPaths.sampleNotebook, to: package)
      let session = try DocumentSession(
        contentsOf: package, contentType: NotebookDocument.notebookType
      ) { _ in NotebookDocument() }
      try await session.open()
      let document = session.document
      #expect(document.metadata.title == "Field Notes")
      #expect(document.pages.count == 6)

      let before = try fileStates(package)
      let edited = document.metadata.pageOrder[2]
      document.pages[edited] = "A page rewritten.\n"
      try await session.save()

      let after = try fileStates(package)
      #expect(Set(after.keys) == Set(before.keys))
      for (path, state) in after {
        let unchanged = before[path].map { $0 == state } ?? false
        #expect(unchanged == !path.contains(edited.uuidString), "\(path)")
      }
      #expect(
        try String(
          contentsOf: package.appendingPathComponent("pages/\(edited.uuidString).txt"),
          encoding: .utf8) == "A page rewritten.\n")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path) == [
          package.lastPathComponent
        ])

      // Saving again with nothing changed touches no file.
      try await session.save()
      #expect(try fileStates(package).mapValues { "\($0)" } == after.mapValues { "\($0)" })
    }
  }

  @Test @MainActor func saveAsSwitchesTheDocumentAndExportLeavesItWhereItIs() async throws {
    try await inTemporaryFolder("session-save-as") { folder in
      let package = folder.appendingPathComponent("Notebook.examplenotebook")
      try FileManager.default.copyItem(at: ProjectPaths.sampleNotebook, to: package)
      let session = try DocumentSession(
        contentsOf: package, contentType: NotebookDocument.notebookType
      ) { _ in NotebookDocument() }
      try await session.open()

      let text = folder.appendingPathComponent("Notebook.txt")
      try await session.export(to: text, contentType: .utf8PlainText)
      #expect(session.fileURL == package.standardizedFileURL)
      let expected = NotebookFormat.plainText.render(
        NotebookSnapshot(metadata: session.document.metadata, pages: session.document.pages))
      #expect(try String(contentsOf: text, encoding: .utf8) == expected)
      // An export does not replace what is there unless asked to.
      await #expect(throws: ExportError.self) {
        try await session.export(to: text, contentType: .utf8PlainText)
      }

      let copy = folder.appendingPathComponent("Copy.examplenotebook")
      try await session.save(to: copy, contentType: NotebookDocument.notebookType)
      #expect(session.fileURL == copy.standardizedFileURL)
      #expect(session.configuration.fileURL == copy.standardizedFileURL)
      #expect(session.configuration.lastContentModificationDate != nil)
      #expect(try TreeManifest(of: copy, includeRoot: false).entries.keys.count == 8)

      let error = await #expect(throws: ExportError.self) {
        try await session.save(to: folder.appendingPathComponent("x.png"), contentType: .png)
      }
      #expect(error?.code == .unsupportedContentType)
    }
  }

  @Test @MainActor func revertAppliesTheFileWithThePreviousSnapshot() async throws {
    try await inTemporaryFolder("session-revert") { folder in
      let file = folder.appendingPathComponent("note.txt")
      try Data("first\n".utf8).write(to: file)
      let session = try DocumentSession(contentsOf: file) { _ in NoteDocument() }
      try await session.open()
      session.document.text = "unsaved"
      try Data("second\n".utf8).write(to: file)
      try await session.revert()
      #expect(session.document.text == "second\n")
      #expect(session.document.appliedPrevious == [nil, "first\n"])
    }
  }

  /// A save's share of progress is complete when `save` returns, not later from another
  /// task (issue 32, item 2), over many rounds.
  @Test @MainActor func aSavesProgressIsCompleteWhenSaveReturns() async throws {
    try await inTemporaryFolder("session-save-progress") { folder in
      let file = folder.appendingPathComponent("note.txt")
      try Data("first\n".utf8).write(to: file)
      let session = try DocumentSession(contentsOf: file) { _ in NoteDocument() }
      try await session.open()
      for round in 0..<200 {
        session.document.text = "round \(round)\n"
        let manager = ProgressManager(totalCount: 1)
        try await session.save(progress: manager.subprogress(assigningCount: 1))
        #expect(manager.fractionCompleted == 1, "round \(round)")
        #expect(manager.isFinished, "round \(round)")
      }
      #expect(try String(contentsOf: file, encoding: .utf8) == "round 199\n")
    }
  }

  @Test @MainActor func aFailedSaveLeavesTheFileAsItWasAndNothingBesideIt() async throws {
    try await inTemporaryFolder("session-fail") { folder in
      let file = folder.appendingPathComponent("note.txt")
      try Data("kept\n".utf8).write(to: file)
      let session = try DocumentSession(contentsOf: file) { _ in NoteDocument(failWrite: true) }
      try await session.open()
      session.document.text = "lost"
      await #expect(throws: CocoaError.self) { try await session.save() }
      #expect(try String(contentsOf: file, encoding: .utf8) == "kept\n")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["note.txt"])
    }
  }

  @Test @MainActor func savingWaitsForAnotherWritersLockAndGivesUpAfterTheTimeout() async throws {
    try await inTemporaryFolder("session-lock") { folder in
      let file = folder.appendingPathComponent("note.txt")
      try Data("x\n".utf8).write(to: file)
      let session = try DocumentSession(
        contentsOf: file, lockOptions: LockOptions(timeout: .milliseconds(200))
      ) { _ in
        NoteDocument()
      }
      try await session.open()
      let other = try await PackageLock.acquire(
        .shared, on: file, options: LockOptions(timeout: .zero))
      session.document.text = "y\n"
      let error = await #expect(throws: PackagingError.self) { try await session.save() }
      #expect(error?.code == .lockTimeout)
      other.release()
      try await session.save()
      #expect(try String(contentsOf: file, encoding: .utf8) == "y\n")
    }
  }

  @Test @MainActor func oneOperationAtATime() async throws {
    try await inTemporaryFolder("session-busy") { folder in
      let file = folder.appendingPathComponent("note.txt")
      try Data("x\n".utf8).write(to: file)
      let session = try DocumentSession(contentsOf: file) { _ in
        NoteDocument(readDelay: .milliseconds(300))
      }
      async let opening: Void = session.open()
      try await Task.sleep(for: .milliseconds(50))
      let error = await #expect(throws: ExportError.self) { try await session.revert() }
      #expect(error?.code == .documentBusy)
      try await opening
      #expect(session.document.text == "x\n")
    }
  }

  @Test @MainActor func aNewDocumentIsSavedToALocationFirst() async throws {
    try await inTemporaryFolder("session-new") { folder in
      let session = DocumentSession(newDocumentOf: NotebookDocument.notebookType) { _ in
        NotebookDocument()
      }
      let error = await #expect(throws: ExportError.self) { try await session.save() }
      #expect(error?.code == .untitledDocument)
      let target = folder.appendingPathComponent("New.examplenotebook")
      try await session.save(to: target, contentType: NotebookDocument.notebookType)
      let reread = try DocumentSession(
        contentsOf: target, contentType: NotebookDocument.notebookType
      ) { _ in NotebookDocument() }
      try await reread.open()
      #expect(reread.document.metadata.title == "Untitled")
      #expect(reread.document.pages.count == 1)
    }
  }

  @Test @MainActor func aFileOfAnotherTypeIsRefusedBeforeAnythingIsRead() async throws {
    try await inTemporaryFolder("session-type") { folder in
      let file = folder.appendingPathComponent("picture.png")
      try Data([0x89, 0x50]).write(to: file)
      let error = #expect(throws: ExportError.self) {
        try DocumentSession(contentsOf: file) { _ in NoteDocument() }
      }
      #expect(error?.code == .unsupportedContentType)
      #expect(error?.message.contains("public.png") == true)
    }
  }
}
