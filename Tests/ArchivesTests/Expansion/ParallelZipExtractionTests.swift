import FolioTestSupport
import Foundation
import ProgressReporting
import Testing

@testable import Archives

/// A zip's files written by several threads: the same tree, the same error and nothing
/// left behind, whatever the number of jobs.
@Suite struct ParallelZipExtractionTests {
  /// Many small files in a few folders (several batches), a file past one batch's
  /// bytes, an empty file, modes, a link and an empty folder.
  static func makeTree(in folder: URL) throws -> URL {
    var files: [String: Data] = [
      "metadata.json": Data(#"{"title":"Parallel"}"#.utf8),
      "media/large.bin": PackTestTrees.text(1_500_000)
        + PackTestTrees.randomBytes(300_000, seed: 3),
      "pages/empty.txt": Data(),
    ]
    for index in 0..<150 {
      files["pages/\(index % 4)/page-\(index).txt"] = PackTestTrees.text(200 + index * 37)
    }
    return try PackTestTrees.make(
      folder.appendingPathComponent("Many.pkg"), files: files,
      modes: ["pages/1/page-5.txt": 0o755, "pages/2/page-6.txt": 0o600], emptyFolders: ["empty"],
      links: ["latest": "pages/0/page-0.txt"])
  }

  @Test func theTreeIsTheSameWhateverTheJobs() async throws {
    try await withTemporaryDirectory("zip-parallel") { folder in
      let tree = try Self.makeTree(in: folder)
      let archive = folder.appendingPathComponent("many.zip")
      _ = try await Packer.pack(tree, to: archive, options: PackOptions(jobs: 2))
      var expected = treeSnapshot(tree)
      expected["."] = nil
      for jobs in [1, 2, 5] {
        for durable in [false, true] {
          let destination = folder.appendingPathComponent("out-\(jobs)-\(durable)")
          let policy = ExpansionPolicy(flushesBeforeCommit: durable, jobs: jobs)
          let progress = ProgressManager(totalCount: 1)
          let result = try Expander.expandSynchronously(
            archive, into: destination, policy: policy, reporter: progress)
          #expect(result.fileCount == 153)
          #expect(result.symbolicLinkCount == 1)
          #expect(progress.completedFileCount == 154)
          #expect(progress.completedByteCount == progress.totalByteCount)
          var written = treeSnapshot(destination)
          written["."] = nil
          #expect(written == expected, "jobs \(jobs), durable \(durable)")
        }
      }
    }
  }

  /// Stored entries 30 and 90 each have a byte changed, so both fail their CRC-32: the
  /// error is always entry 30's, and nothing is left.
  @Test func theFirstBadEntryInArchiveOrderIsTheErrorWhateverTheJobs() throws {
    let folder = try makeTemporaryDirectory("zip-parallel-bad")
    defer { removeTree(folder) }
    let archive = folder.appendingPathComponent("bad.zip")
    let script = """
      import sys, zipfile
      out = sys.argv[1]
      with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
          for i in range(120):
              z.writestr("pkg/f%03d.txt" % i, ("content of file %03d " % i) * 200)
      data = bytearray(open(out, "rb").read())
      with zipfile.ZipFile(out) as z:
          for name in ("pkg/f030.txt", "pkg/f090.txt"):
              info = z.getinfo(name)
              start = info.header_offset
              name_length = int.from_bytes(data[start + 26:start + 28], "little")
              extra_length = int.from_bytes(data[start + 28:start + 30], "little")
              data[start + 30 + name_length + extra_length + 100] ^= 0x20
      open(out, "wb").write(bytes(data))
      """
    #expect(try runProcess("python3", ["-c", script, archive.path]).status == 0)
    let before = treeListing(folder)
    var messages: Set<String> = []
    for jobs in [1, 2, 4, 7] {
      let destination = folder.appendingPathComponent("out")
      let error = #expect(throws: PackagingError.self) {
        _ = try Expander.expandSynchronously(
          archive, into: destination, policy: ExpansionPolicy(jobs: jobs))
      }
      #expect(error?.code == .corruptArchive)
      messages.insert(error.map { String(describing: $0) } ?? "none")
      #expect(treeListing(folder) == before, "jobs \(jobs) left something behind")
    }
    #expect(messages.count == 1, "\(messages)")
    #expect(messages.first?.contains("f030.txt") == true, "\(messages)")
  }
}
