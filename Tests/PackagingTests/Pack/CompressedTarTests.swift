import FolioTestSupport
import Foundation
import Testing

@testable import Packaging

/// Tar written with several threads: files read ahead of libarchive, gzip block-parallel
/// into one member, zstd and xz through their encoders' workers; the same bytes whatever
/// the jobs.
@Suite struct CompressedTarTests {
  @Test(arguments: [ArchiveFormat.tar, .tarGzip, .tarZstd, .tarXz])
  func reproducibleArchivesAreTheSameBytesWhateverTheJobs(format: ArchiveFormat) async throws {
    try await withTemporaryDirectory("tar-jobs") { folder in
      let tree = try ZipWriterTests.makeTree(in: folder)
      // A hard link (written as a link to the entry before it) and more files than one
      // read-ahead batch holds, so batches, a large file between them and links interleave.
      #expect(
        link(
          tree.appendingPathComponent("pages/a.txt").path,
          tree.appendingPathComponent("pages/z-hard.txt").path) == 0)
      let many = tree.appendingPathComponent("many")
      try FileManager.default.createDirectory(at: many, withIntermediateDirectories: true)
      for index in 0..<(TarBatch.entryLimit + 40) {
        try Data("note \(index)\n".utf8).write(
          to: many.appendingPathComponent(String(format: "%04d.txt", index)))
      }
      var archives: [Data] = []
      for jobs in [1, 2, 4] {
        let archive = folder.appendingPathComponent("j\(jobs).\(format.fileExtension)")
        _ = try await Packer.pack(
          tree, to: archive, options: PackOptions(reproducible: true, jobs: jobs))
        archives.append(try Data(contentsOf: archive))
      }
      #expect(Set(archives).count == 1)
      let archive = folder.appendingPathComponent("j2.\(format.fileExtension)")
      if let tester = ["tar.gz": "gzip", "tar.zst": "zstd", "tar.xz": "xz"][format.fileExtension] {
        let test = try runProcess(tester, ["-t", archive.path])
        #expect(test.status == 0, "\(tester) -t: \(test.errorText)")
      }
      let out = folder.appendingPathComponent("out")
      try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
      #expect(try runProcess("bsdtar", ["-xf", archive.path, "-C", out.path]).status == 0)
      let got = try TreeManifest(of: out.appendingPathComponent("Mixed.pkg"))
      #expect(got.differences(from: try TreeManifest(of: tree)) == [])
    }
  }

  @Test func gzipIsOneMemberThatPythonAndGzipRead() async throws {
    try await withTemporaryDirectory("tar-gzip") { folder in
      let tree = try ZipWriterTests.makeTree(in: folder)
      let archive = folder.appendingPathComponent("m.tar.gz")
      _ = try await Packer.pack(tree, to: archive, options: PackOptions(jobs: 3))
      // One member: the header appears once, and the trailer's size is the tar's size.
      let script = """
        import gzip, struct, sys
        raw = open(sys.argv[1], 'rb').read()
        data = gzip.decompress(raw)
        assert raw[:2] == b'\\x1f\\x8b' and raw.count(b'\\x1f\\x8b\\x08') >= 1
        assert struct.unpack('<I', raw[-4:])[0] == len(data) % 2**32
        import zlib
        d = zlib.decompressobj(31)
        d.decompress(raw)
        assert d.eof and d.unused_data == b'', 'more than one member'
        print(len(data))
        """
      let result = try runProcess("python3", ["-c", script, archive.path])
      #expect(result.status == 0, "\(result.errorText)")
      let listed = try runProcess("sh", ["-c", "gzip -dc '\(archive.path)' | tar -tf - | wc -l"])
      #expect(Int(listed.outputText.trimmingCharacters(in: .whitespacesAndNewlines)) == 16)
    }
  }
}
