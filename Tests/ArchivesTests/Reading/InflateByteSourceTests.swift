import FolioTestSupport
import Foundation
import Testing

@testable import Archives

/// zlib's streaming inflate, as zip entries too big for one call and gzip streams use it.
@Suite struct InflateByteSourceTests {
  /// A run of one byte a little longer than a whole number of output chunks: zlib takes the
  /// last compressed byte while the output chunk fills, and holds the rest of the run.
  @Test(arguments: [1, 3, 100, 258, 1_000])
  func aStreamWhoseLastBytesAreAlreadyTakenStillEnds(_ extra: Int) async throws {
    try await withTemporaryDirectory("inflate-held-output") { folder in
      let size = 2 * ByteSourceChunk.size + extra
      let path = folder.appendingPathComponent("entry.deflate").path
      let made = try runProcess(
        "python3",
        [
          "-c",
          "import sys, zlib; c = zlib.compressobj(9, zlib.DEFLATED, -15); "
            + "open(sys.argv[1], 'wb').write(c.compress(b'x' * \(size)) + c.flush())", path,
        ])
      try #require(made.status == 0, "\(made.errorText)")
      let file = try ArchiveFile(path: path)
      let length = try #require(
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
      let source = try InflateByteSource(
        FileRangeByteSource(file, offset: 0, length: Int64(length)), format: .rawDeflate,
        context: "entry 'a.bin'")
      var count = 0
      var allX = true
      while let chunk = try source.next() {
        count += chunk.count
        allX = allX && chunk.allSatisfy { $0 == UInt8(ascii: "x") }
      }
      #expect(count == size)
      #expect(allX)
    }
  }

  /// A stream cut short is still refused as truncated.
  @Test func aStreamCutShortIsTruncated() async throws {
    try await withTemporaryDirectory("inflate-cut") { folder in
      let path = folder.appendingPathComponent("entry.deflate").path
      let made = try runProcess(
        "python3",
        [
          "-c",
          "import sys, zlib, random; random.seed(7); c = zlib.compressobj(9, zlib.DEFLATED, -15); "
            + "d = c.compress(random.randbytes(300000)) + c.flush(); "
            + "open(sys.argv[1], 'wb').write(d[:len(d) // 2])", path,
        ])
      try #require(made.status == 0, "\(made.errorText)")
      let file = try ArchiveFile(path: path)
      let length = try #require(
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
      let source = try InflateByteSource(
        FileRangeByteSource(file, offset: 0, length: Int64(length)), format: .rawDeflate,
        context: "entry 'a.bin'")
      let error = #expect(throws: PackagingError.self) {
        while try source.next() != nil {}
      }
      #expect(error?.code == .corruptArchive)
      #expect(error?.message.contains("truncated") == true, "\(String(describing: error))")
    }
  }

  /// Zip entries at every compression ratio up to the expansion's limit, each a little past
  /// a whole number of output chunks, expand as bsdtar expands them.
  @Test(arguments: [2, 10, 100, 500, 1_000])
  func entriesUpToTheRatioLimitExpandAsBsdtarDoes(_ ratio: Int) async throws {
    try await withTemporaryDirectory("inflate-ratio") { folder in
      let script = """
        import random, zipfile, zlib
        random.seed(\(ratio))
        def ratio(data):
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            return len(data) / len(c.compress(data) + c.flush())
        with zipfile.ZipFile('OUT', 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            z.writestr(zipfile.ZipInfo('runs/', (2020, 1, 1, 0, 0, 0)), b'')
            for k in range(1, 5):
                for extra in (1, 100, 258, 1000, 40000):
                    size = k * \(ByteSourceChunk.size) + extra
                    noise = random.randbytes(size)
                    low, high = 0, size  # random bytes in front: the fewer, the higher the ratio
                    while low < high:
                        middle = (low + high) // 2
                        if ratio(noise[:middle] + b'r' * (size - middle)) <= \(ratio):
                            high = middle
                        else:
                            low = middle + 1
                    data = noise[:low] + b'r' * (size - low)
                    assert ratio(data) <= \(ratio)
                    info = zipfile.ZipInfo(f'runs/{k}-{extra}.bin', (2020, 1, 1, 0, 0, 0))
                    z.writestr(info, data, zipfile.ZIP_DEFLATED)
        """
      let result = try expectExpandsAsBsdtar(python: script, in: folder, "ratio \(ratio)")
      #expect(result.fileCount == 20)
    }
  }
}

/// Bytes after a `.tgz`'s last gzip member, as signing tools and disk images leave them.
@Suite struct GzipTrailingDataTests {
  @Test(arguments: [
    "trailing garbage\n", "\u{1F}not a member", String(repeating: "x", count: 70_000),
  ])
  func trailingBytesAreIgnoredWithAWarningAsBsdtarDoes(_ trailer: String) async throws {
    try await withTemporaryDirectory("gzip-trailing") { folder in
      let tree = folder.appendingPathComponent("top/d")
      try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
      try Data("hello\n".utf8).write(to: tree.appendingPathComponent("a.txt"))
      let archive = folder.appendingPathComponent("t.tgz")
      let made = try runProcess("bsdtar", ["-czf", archive.path, "top"], in: folder)
      try #require(made.status == 0, "\(made.errorText)")
      let handle = try FileHandle(forWritingTo: archive)
      try handle.seekToEnd()
      try handle.write(contentsOf: Data(trailer.utf8))
      try handle.close()
      let theirs = folder.appendingPathComponent("theirs")
      try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: false)
      let extracted = try runProcess("bsdtar", ["-xpf", archive.path, "-C", theirs.path])
      #expect(extracted.status == 0, "\(extracted.errorText)")
      let ours = folder.appendingPathComponent("ours")
      let result = try Expander.expandSynchronously(
        archive, into: ours, policy: ExpansionPolicy(keepsTopFolder: true))
      var expected = treeSnapshot(theirs)
      var actual = treeSnapshot(ours)
      expected["."] = nil
      actual["."] = nil
      for key in expected.keys { expected[key]?.mode &= 0o755 }
      expectSameTree(expected, actual, "trailing \(trailer.utf8.count) bytes")
      #expect(actual["top/d/a.txt"]?.content == Data("hello\n".utf8))
      #expect(result.warnings.map(\.code) == ["gzip-trailing-data"])
      #expect(
        result.warnings.first?.message.contains(
          "\(trailer.utf8.count) bytes after the last gzip member")
          == true, "\(result.warnings)")
    }
  }
}
