import FolioTestSupport
import Foundation
import ProgressReporting
import Testing

@testable import Archives

@Suite struct PackerProgressTests {
  /// Every event `root` reports until it finishes, gathered by a task.
  static func recordEvents(of root: ProgressManager) -> Task<[ProgressEvent], Never> {
    let events = root.reporter.events(interval: .zero)
    return Task {
      var seen: [ProgressEvent] = []
      for await event in events { seen.append(event) }
      return seen
    }
  }

  @Test(arguments: [ArchiveFormat.zip, .tarGzip])
  func countsEndAtTheFilesAndBytesAndNeverGoBack(format: ArchiveFormat) async throws {
    let package = try BenchmarkCorpus.small().appendingPathComponent("pages.examplenotebook")
    let manifest = try TreeManifest(of: package)
    let files = manifest.entries.values.filter { $0.kind == "file" }
    let expectedBytes = files.reduce(Int64(0)) { $0 + Int64($1.contents?.count ?? 0) }
    try await withTemporaryDirectory("pack-progress") { folder in
      let root = ProgressManager(totalCount: 1)
      let watcher = Self.recordEvents(of: root)
      let result = try await Packer.pack(
        package, to: folder.appendingPathComponent("p." + format.fileExtension),
        progress: root.subprogress(assigningCount: 1))
      let seen = await watcher.value

      #expect(result.fileCount == files.count)
      #expect(result.byteCount == expectedBytes)
      var started = 0
      var finished = 0
      var lastBytes: UInt64 = 0
      var lastFiles = 0
      var final: ProgressSnapshot?
      for event in seen {
        switch event {
        case .fileStarted: started += 1
        case .fileFinished: finished += 1
        case .update(let snapshot):
          #expect(snapshot.completedByteCount >= lastBytes)
          #expect(snapshot.completedFileCount >= lastFiles)
          #expect(snapshot.totalByteCount == UInt64(expectedBytes))
          #expect(snapshot.totalFileCount == files.count)
          lastBytes = snapshot.completedByteCount
          lastFiles = snapshot.completedFileCount
        case .finished(let snapshot): final = snapshot
        }
      }
      #expect(started == files.count)
      #expect(finished == files.count)
      #expect(final?.completedFileCount == files.count)
      #expect(final?.completedByteCount == UInt64(expectedBytes))
      #expect(final?.completedByteCount ?? 0 >= lastBytes)
      #expect(final?.fractionCompleted == 1)
    }
  }

  @Test func cancelledPackLeavesNothingAndKeepsAnExistingOutput() async throws {
    let package = try BenchmarkCorpus.small().appendingPathComponent("media.examplenotebook")
    try await withTemporaryDirectory("pack-cancel") { folder in
      let archive = folder.appendingPathComponent("media.tar.xz")
      let previous = Data("keep me".utf8)
      try previous.write(to: archive)
      let root = ProgressManager(totalCount: 1)
      var options = PackOptions()
      options.replacePolicy = .replace
      let work = Task { [options] in
        try await Packer.pack(
          package, to: archive, options: options, progress: root.subprogress(assigningCount: 1))
      }
      // Cancel once the first bytes went through: the writer is mid-archive.
      let watch = CancellationWatch.cancel(work) {
        root.reporter.snapshot.completedByteCount > 0
      }
      let outcome = await work.result
      watch.stop()
      #expect(throws: CancellationError.self) { try outcome.get() }
      #expect(try Data(contentsOf: archive) == previous)
      #expect(PackTestTrees.temporaries(in: folder) == [])
      #expect(root.reporter.snapshot.completedByteCount < 64 << 20)
    }
  }

  /// A program that packs and watches the events needs no `finish()`.
  ///
  /// The stream ends when the pack returns or throws, wherever it throws. There is no time
  /// limit: on a loaded machine a correct run can take minutes. When the manager is not
  /// finished after the pack, the test fails and cancels the watcher rather than hang.
  @Test(arguments: ["done", "refused-entry", "missing-destination"])
  func anObserverOfAPackEndsWithoutAnyFinishCall(outcome: String) async throws {
    try await withTemporaryDirectory("pack-observer-\(outcome)") { folder in
      let package = folder.appendingPathComponent("Notes.examplenotebook")
      try FileManager.default.createDirectory(
        at: package.appendingPathComponent("pages"), withIntermediateDirectories: true)
      try Data("{}".utf8).write(to: package.appendingPathComponent("metadata.json"))
      try Data("page\n".utf8).write(to: package.appendingPathComponent("pages/a.txt"))
      var archive = folder.appendingPathComponent("Notes.zip")
      switch outcome {
      case "refused-entry":
        #expect(mkfifo(package.appendingPathComponent("pages/pipe").path, 0o600) == 0)
      case "missing-destination":
        archive = folder.appendingPathComponent("absent/Notes.zip")
      default: break
      }
      let manager = ProgressManager(totalCount: 1)
      let watcher = Task { () -> ProgressSnapshot? in
        var final: ProgressSnapshot?
        for await event in manager.reporter.events() {
          if case .finished(let snapshot) = event { final = snapshot }
        }
        return final
      }
      let packed: Result<PackResult, any Error>
      do {
        packed = .success(
          try await Packer.pack(
            package, to: archive, progress: manager.subprogress(assigningCount: 1)))
      } catch {
        packed = .failure(error)
      }
      #expect(manager.isFinished, "the stream ends when the manager finishes")
      if !manager.isFinished { watcher.cancel() }
      let final = await watcher.value
      #expect(final?.isFinished == true)
      if outcome == "done" {
        #expect(try packed.get().fileCount == 2)
        #expect(final?.completedFileCount == 2)
      } else {
        #expect(throws: PackagingError.self) { try packed.get() }
        #expect(!FileManager.default.fileExists(atPath: archive.path))
      }
    }
  }

  @Test func cancellingTheReporterStopsTheSynchronousCore() throws {
    let package = try BenchmarkCorpus.small().appendingPathComponent("pages.examplenotebook")
    let folder = try makeTemporaryDirectory("pack-cancel-sync")
    defer { removeTree(folder) }
    let root = ProgressManager(totalCount: 1)
    root.cancel()
    #expect(throws: CancellationError.self) {
      try Packer.packSynchronously(
        package, to: folder.appendingPathComponent("p.zip"),
        progress: root.subprogress(assigningCount: 1))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
  }
}
