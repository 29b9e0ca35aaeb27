import FolioTestSupport
import Foundation
import Testing

@testable import Archives

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

  /// Several of zstd's jobs (512 KiB each) in one frame with zstd's checksum: a flipped byte
  /// is caught by `zstd -t`, and bsdtar and GNU tar read the archive.
  @Test func zstdIsOneCheckedFrameThatZstdBsdtarAndGnuTarRead() async throws {
    try await withTemporaryDirectory("tar-zstd") { folder in
      var files: [String: Data] = [:]
      for index in 0..<6 {
        files["media/part\(index).bin"] =
          PackTestTrees.text(400_000) + PackTestTrees.randomBytes(600_000, seed: UInt64(index))
      }
      let tree = try PackTestTrees.make(folder.appendingPathComponent("Big.pkg"), files: files)
      let archive = folder.appendingPathComponent("big.tar.zst")
      _ = try await Packer.pack(tree, to: archive, options: PackOptions(jobs: 2))
      let listing = try runProcess("zstd", ["-lv", archive.path])
      #expect(listing.outputText.contains("# Zstandard Frames: 1"), "\(listing.outputText)")
      #expect(listing.outputText.contains("Check: XXH64"), "\(listing.outputText)")
      #expect(try runProcess("zstd", ["-tq", archive.path]).status == 0)
      for (tool, arguments) in [("bsdtar", ["-xf"]), ("tar", ["--zstd", "-xf"])] {
        let out = folder.appendingPathComponent("out-\(tool)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let result = try runProcess(tool, arguments + [archive.path, "-C", out.path])
        #expect(result.status == 0, "\(tool): \(result.errorText)")
        let got = try TreeManifest(of: out.appendingPathComponent("Big.pkg"))
        #expect(got.differences(from: try TreeManifest(of: tree)) == [])
      }
      var damaged = try Data(contentsOf: archive)
      damaged[damaged.count / 2] ^= 0x40
      let copy = folder.appendingPathComponent("damaged.tar.zst")
      try damaged.write(to: copy)
      #expect(try runProcess("zstd", ["-tq", copy.path]).status != 0)
    }
  }
}
