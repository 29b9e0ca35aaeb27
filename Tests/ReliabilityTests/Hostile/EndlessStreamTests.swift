import FolioTestSupport
import Foundation
import Testing

/// Issue 30 item 1: `folio expand -` and `folio list -` end on a pipe that never does.
///
/// A Python process writes a valid archive and then bytes forever: zeros after a tar's
/// end-of-archive blocks, zeros inside the gzip member after the tar, zeros inside an entry
/// that declares a huge size, a zip that never reaches its end. Each case asserts the exit,
/// the message and how many bytes the writer got into the pipe before it broke (a bound on
/// what Folio read, not on time); `timeout` only guards against a hang.
@Suite struct EndlessStreamTests {
  /// The generator: `endless.py MODE ARCHIVE`, reporting on standard error how many bytes
  /// (for the gzip modes, decoded bytes) it wrote after the archive before the pipe broke.
  static let generator = """
    import sys, zlib
    mode, path = sys.argv[1], sys.argv[2]
    data = open(path, 'rb').read()
    out = sys.stdout.buffer
    written = 0
    try:
        if mode == 'zeros':
            out.write(data)
            chunk = bytes(1 << 16)
            while True:
                out.write(chunk); written += len(chunk)
        else:
            # 'gzip': the archive, then zeros, all in one gzip member that never ends.
            # Level 1 and a flush per MiB keep the ratio far below the ratio limit.
            deflate = zlib.compressobj(1, zlib.DEFLATED, 31)
            out.write(deflate.compress(data) + deflate.flush(zlib.Z_SYNC_FLUSH))
            chunk = bytes(1 << 20)
            while True:
                out.write(deflate.compress(chunk) + deflate.flush(zlib.Z_SYNC_FLUSH))
                written += len(chunk)
    except BrokenPipeError:
        pass
    sys.stderr.write('generator wrote %d\\n' % written)
    """

  /// Runs `python3 endless.py MODE ARCHIVE | folio ARGS`, with a generous guard.
  static func pipe(
    _ mode: String, _ archive: URL, into arguments: [String], in folder: URL
  ) throws -> (result: ChildResult, written: Int64) {
    let script = folder.appendingPathComponent("endless.py")
    try Data(generator.utf8).write(to: script)
    let errors = folder.appendingPathComponent("generator.err")
    let folio = ([FolioBinary.url.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
    let result = try ChildProcess.run(
      "/bin/sh",
      [
        "-c",
        "python3 '\(script.path)' \(mode) '\(archive.path)' 2>'\(errors.path)' | timeout 300 \(folio)",
      ])
    let report = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
    let written = report.split(separator: " ").last.flatMap {
      Int64($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    return (result, written ?? -1)
  }

  /// A tar of one small file, made by bsdtar.
  static func smallTar(in folder: URL) throws -> URL {
    let source = folder.appendingPathComponent("src")
    try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
    try Data("hello\n".utf8).write(to: source.appendingPathComponent("a.txt"))
    let tar = folder.appendingPathComponent("a.tar")
    #expect(try runProcess("bsdtar", ["-cf", tar.path, "-C", source.path, "a.txt"]).status == 0)
    return tar
  }

  @Test(arguments: [["list", "--names", "-"], ["expand", "-", "-o", "DEST", "--quiet"]])
  func zerosAfterATarsEndAreNotRead(_ command: [String]) async throws {
    try await withTemporaryDirectory("endless-tar") { folder in
      let tar = try Self.smallTar(in: folder)
      let arguments = command.map {
        $0 == "DEST" ? folder.appendingPathComponent("dest").path : $0
      }
      let (result, written) = try Self.pipe("zeros", tar, into: arguments, in: folder)
      #expect(result.status == 0, "\(result.errorText)")
      // bsdtar stops at the end too; Folio reads nothing after it but the pipe's buffer.
      let peer = try runProcess(
        "/bin/sh", ["-c", "cat '\(tar.path)' /dev/zero | head -c 100M | bsdtar -tf -"])
      #expect(peer.status == 0)
      if command[0] == "list" {
        #expect(result.outputText == "a.txt\n")
        #expect(peer.outputText == "a.txt\n")
      } else {
        let text = try String(
          contentsOf: folder.appendingPathComponent("dest/a.txt"), encoding: .utf8)
        #expect(text == "hello\n")
      }
      #expect(written >= 0 && written <= 1 << 20, "the generator wrote \(written) bytes")
    }
  }

  @Test(arguments: [["list", "--names", "-"], ["expand", "-", "-o", "DEST", "--quiet"]])
  func zerosInsideTheGzipMemberAfterTheTarAreRefusedAfterOneMiB(_ command: [String])
    async throws
  {
    try await withTemporaryDirectory("endless-gzip") { folder in
      let tar = try Self.smallTar(in: folder)
      let destination = folder.appendingPathComponent("dest")
      let arguments = command.map { $0 == "DEST" ? destination.path : $0 }
      let (result, written) = try Self.pipe("gzip", tar, into: arguments, in: folder)
      #expect(result.status == 1, "\(result.errorText)")
      #expect(
        result.errorText.contains("goes on for more than 1048576 bytes after the archive's end"),
        "\(result.errorText)")
      #expect(result.errorText.contains("[corrupt-archive]"), "\(result.errorText)")
      #expect(!FileManager.default.fileExists(atPath: destination.path))
      // 1 MiB after the end, plus what the pipe and the decoders hold: a 64 KiB pipe holds
      // about 16 MiB of these zeros compressed.
      #expect(written >= 0 && written <= 40 << 20, "the generator wrote \(written) bytes")
      #expect(result.peakMemoryKiB < HostileExpansionTests.memoryBoundKiB)
    }
  }

  /// Zeros after the compressed stream itself, for each compression: the stream ends, or
  /// the zeros are refused, after a bounded read (xz takes zeros as stream padding, so
  /// only the bound on compressed bytes that decode to nothing stops it).
  @Test(arguments: [("gzip", "-c"), ("xz", "-c"), ("zstd", "-qc"), ("bzip2", "-c")])
  func zerosAfterTheCompressedStreamAreReadOnlySoFar(_ compressor: String, _ flag: String)
    async throws
  {
    try await withTemporaryDirectory("endless-compressed") { folder in
      let tar = try Self.smallTar(in: folder)
      let compressed = folder.appendingPathComponent("a.tar.z")
      let made = try runProcess(
        "/bin/sh", ["-c", "\(compressor) \(flag) '\(tar.path)' > '\(compressed.path)'"])
      #expect(made.status == 0, "\(made.errorText)")
      let (result, written) = try Self.pipe(
        "zeros", compressed, into: ["list", "--names", "-"], in: folder)
      #expect(result.status == 0 || result.status == 1, "\(compressor): \(result.errorText)")
      if result.status == 1 {
        #expect(result.errorText.contains("[corrupt-archive]"), "\(result.errorText)")
      } else {
        #expect(result.outputText == "a.txt\n")
      }
      #expect(written >= 0 && written <= 32 << 20, "\(compressor): the generator wrote \(written)")
    }
  }

  /// An entry that declares 1 GiB and is fed zeros inside the gzip member: its bytes are
  /// counted against --max-bytes as they are decoded, whether or not they are written.
  @Test(arguments: [
    ["expand", "-", "-o", "DEST", "--max-bytes", "4M"],
    ["expand", "-", "-o", "DEST", "--max-bytes", "4M", "--include", "nothing-matches"],
    ["list", "-", "--max-bytes", "4M"],
  ])
  func zerosInsideAHugeEntryCountAgainstTheByteLimit(_ command: [String]) async throws {
    try await withTemporaryDirectory("endless-entry") { folder in
      // A ustar header for a 1 GiB file and nothing else: the generator supplies the data.
      let header = folder.appendingPathComponent("header.tar")
      let made = try runProcess(
        "python3",
        [
          "-c",
          """
          import tarfile, sys
          info = tarfile.TarInfo('big.bin'); info.size = 1 << 30
          open(sys.argv[1], 'wb').write(info.tobuf(tarfile.USTAR_FORMAT))
          """, header.path,
        ])
      #expect(made.status == 0, "\(made.errorText)")
      let destination = folder.appendingPathComponent("dest")
      let arguments = command.map { $0 == "DEST" ? destination.path : $0 }
      let (result, written) = try Self.pipe("gzip", header, into: arguments, in: folder)
      #expect(result.status == 1, "\(result.errorText)")
      #expect(result.errorText.contains("[expansion-too-large]"), "\(result.errorText)")
      #expect(
        result.errorText.contains("raise the limit with --max-bytes"), "\(result.errorText)")
      #expect(!FileManager.default.fileExists(atPath: destination.path))
      // `list` writes nothing: only the stream's bound (the limit and 16 MiB of room for
      // headers) stops it; the pipe holds about 16 MiB more of these zeros.
      #expect(written >= 0 && written <= 48 << 20, "the generator wrote \(written) bytes")
    }
  }

  @Test(arguments: [["list", "-"], ["expand", "-", "-o", "DEST"]])
  func aZipThatNeverEndsIsRefusedAtTheInputLimit(_ command: [String]) async throws {
    try await withTemporaryDirectory("endless-zip") { folder in
      let source = folder.appendingPathComponent("a.txt")
      try Data("hello\n".utf8).write(to: source)
      let zip = folder.appendingPathComponent("a.zip")
      #expect(
        try runProcess(
          "python3",
          [
            "-c",
            "import zipfile, sys; zipfile.ZipFile(sys.argv[1], 'w').write(sys.argv[2], 'a.txt')",
            zip.path, source.path,
          ]
        ).status == 0)
      let destination = folder.appendingPathComponent("dest")
      let arguments =
        command.map { $0 == "DEST" ? destination.path : $0 } + ["--max-input-size", "2M"]
      let (result, written) = try Self.pipe("zeros", zip, into: arguments, in: folder)
      #expect(result.status == 1, "\(result.errorText)")
      #expect(
        result.errorText.contains("holds more than 2097152 bytes, the limit for a zip"),
        "\(result.errorText)")
      #expect(result.errorText.contains("[input-too-large]"), "\(result.errorText)")
      // The library's message names no option; the command's hint does.
      #expect(
        result.errorText.contains("raise the limit with --max-input-size"), "\(result.errorText)")
      #expect(!FileManager.default.fileExists(atPath: destination.path))
      #expect(written >= 0 && written <= 4 << 20, "the generator wrote \(written) bytes")
    }
  }
}
