import FolioTestSupport
import Foundation
import Testing

@testable import Packaging

@Suite struct PackerProgressTests {
  @Test(arguments: [ArchiveFormat.zip, .tarGzip])
  func countsEndAtTheFilesAndBytesAndNeverGoBack(format: ArchiveFormat) async throws {
    let package = try BenchmarkCorpus.small().appendingPathComponent("pages.examplenotebook")
    let manifest = try TreeManifest(of: package)
    let files = manifest.entries.values.filter { $0.kind == "file" }
    let expectedBytes = files.reduce(Int64(0)) { $0 + Int64($1.contents?.count ?? 0) }
    try await withTemporaryDirectory("pack-progress") { folder in
      let root = ProgressManager(totalCount: 1)
      let events = root.reporter.events(interval: .zero)
      let watcher = Task { () -> [ProgressEvent] in
        var seen: [ProgressEvent] = []
        for await event in events { seen.append(event) }
        return seen
      }
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
      let events = root.reporter.events(interval: .zero)
      let work = Task {
        try await Packer.pack(package, to: archive, progress: root.subprogress(assigningCount: 1))
      }
      // Cancel once the first bytes went through: the writer is mid-archive.
      for await event in events {
        if case .update(let snapshot) = event, snapshot.completedByteCount > 0 {
          work.cancel()
          break
        }
      }
      let outcome = await work.result
      #expect(throws: CancellationError.self) { try outcome.get() }
      #expect(try Data(contentsOf: archive) == previous)
      #expect(PackTestTrees.temporaries(in: folder) == [])
      #expect(root.reporter.snapshot.completedByteCount < 64 << 20)
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
