import FolioTestSupport
import Foundation
import ProgressReporting
import Testing

@testable import Archives

/// A tar's entries written on a thread of their own while the next are decoded: the same
/// tree, the same error and nothing left behind, whatever the number of jobs.
@Suite struct StagingWriterTests {
  @Test(arguments: [ArchiveFormat.tar, .tarGzip, .tarZstd])
  func theTreeIsTheSameWhateverTheJobs(_ format: ArchiveFormat) async throws {
    try await withTemporaryDirectory("tar-overlap") { folder in
      let tree = try ParallelZipExtractionTests.makeTree(in: folder)
      let archive = folder.appendingPathComponent("many.\(format.fileExtension)")
      _ = try await Packer.pack(tree, to: archive, options: PackOptions(format: format, jobs: 2))
      var expected = treeSnapshot(tree)
      expected["."] = nil
      for jobs in [1, 2, 4] {
        for durable in [false, true] {
          let destination = folder.appendingPathComponent("out-\(jobs)-\(durable)")
          let policy = ExpansionPolicy(flushesBeforeCommit: durable, jobs: jobs)
          let progress = ProgressManager(totalCount: 1)
          let result = try Expander.expandSynchronously(
            archive, into: destination, policy: policy, reporter: progress)
          #expect(result.fileCount == 153)
          #expect(result.symbolicLinkCount == 1)
          #expect(progress.completedFileCount == 154)
          var written = treeSnapshot(destination)
          written["."] = nil
          #expect(written == expected, "jobs \(jobs), durable \(durable)")
        }
      }
    }
  }

  @Test func aTruncatedArchiveGivesTheSameErrorAndLeavesNothingWhateverTheJobs() async throws {
    try await withTemporaryDirectory("tar-overlap-bad") { folder in
      let tree = try ParallelZipExtractionTests.makeTree(in: folder)
      let whole = folder.appendingPathComponent("whole.tar")
      _ = try await Packer.pack(tree, to: whole, options: PackOptions(format: .tar))
      let bytes = try Data(contentsOf: whole)
      let archive = folder.appendingPathComponent("cut.tar")
      try bytes.prefix(bytes.count * 2 / 3 + 100).write(to: archive)
      removeTree(tree)
      try FileManager.default.removeItem(at: whole)
      let before = treeListing(folder)
      var messages: Set<String> = []
      for jobs in [1, 2, 3] {
        let destination = folder.appendingPathComponent("out")
        let error = #expect(throws: PackagingError.self) {
          _ = try Expander.expandSynchronously(
            archive, into: destination, policy: ExpansionPolicy(jobs: jobs))
        }
        #expect(error?.code == .corruptArchive, "\(error.map { String(describing: $0) } ?? "none")")
        messages.insert(error.map { String(describing: $0) } ?? "none")
        #expect(treeListing(folder) == before, "jobs \(jobs) left something behind")
      }
      #expect(messages.count == 1, "\(messages)")
    }
  }

  @Test func filesOfEverySizeAroundABufferAreWrittenWhole() async throws {
    try await withTemporaryDirectory("tar-overlap-sizes") { folder in
      // Small files share a buffer; a piece that does not fit what is left starts the
      // next; pieces of a whole buffer and past it; more buffers than there are.
      let size = ByteSourceChunk.size
      let sizes = [
        0, 1, 100, size / 2, size / 2 + 1, size - 1, size, size + 1, 3, 2 * size + 7, 7_000,
        size / 3, size / 3, size / 3, size / 3,
      ]
      var files: [String: Data] = [:]
      for (index, count) in sizes.enumerated() {
        files["f/\(index)-\(count).bin"] = PackTestTrees.randomBytes(count, seed: UInt64(index + 1))
      }
      for index in 0..<(StagingWriter.chunkCount * 3) {
        files["g/\(index).txt"] = PackTestTrees.text(size / 5 + index)
      }
      let tree = try PackTestTrees.make(folder.appendingPathComponent("Sizes.pkg"), files: files)
      let archive = folder.appendingPathComponent("sizes.tar")
      _ = try await Packer.pack(tree, to: archive, options: PackOptions(format: .tar))
      var expected = treeSnapshot(tree)
      expected["."] = nil
      let destination = folder.appendingPathComponent("out")
      let result = try Expander.expandSynchronously(
        archive, into: destination, policy: ExpansionPolicy(flushesBeforeCommit: false, jobs: 2))
      #expect(result.fileCount == files.count)
      var written = treeSnapshot(destination)
      written["."] = nil
      #expect(written == expected)
    }
  }
}
