import FolioTestSupport
import Foundation
import Testing

/// Issue 30 items 3 and 4: every reader stays within its documented limits.
///
/// Readers other than the archive readers refuse past a limit naming it and the option
/// that raises it, and two inputs that map to one item are never merged quietly. Every hostile input is built here, at a scale
/// that passes the limit (a small limit where an option sets one), not at the gigabytes
/// the defaults stop.
@Suite struct BoundedReaderTests {
  /// Peak memory of any of these runs, in KiB: the issue's goal for every command.
  static let memoryBoundKiB = 256 << 10

  static func python(_ script: String, _ arguments: [String]) throws {
    let result = try runProcess("python3", ["-c", script] + arguments)
    #expect(result.status == 0, "\(result.errorText)")
  }

  // MARK: Property lists

  /// One 1 MiB string referenced 2,000 times, written by Python's plistlib (which stores
  /// equal scalars once): 2 GiB once spelled out, refused before anything is written.
  @Test(arguments: ["xml", "json", "binary"])
  func sharedReferencesAreRefusedBeforeTheOutputIsWritten(_ format: String) async throws {
    try await withTemporaryDirectory("bounded-shared") { folder in
      let input = folder.appendingPathComponent("Shared.plist")
      try Self.python(
        "import plistlib, sys; s = 'x' * (1 << 20); open(sys.argv[1], 'wb').write(plistlib.dumps([s] * 2000, fmt=plistlib.FMT_BINARY))",
        [input.path])
      let size = try #require(
        try FileManager.default.attributesOfItem(atPath: input.path)[.size] as? Int)
      #expect(size < 2 << 20)
      let output = folder.appendingPathComponent("Out.plist")
      let result = try ChildProcess.run(
        FolioBinary.url.path, ["plist", "convert", "--to", format, "-o", output.path, input.path])
      #expect(result.status == 1, "\(result.errorText)")
      #expect(result.errorText.contains("more than 67108864 bytes"), "\(result.errorText)")
      #expect(
        result.errorText.contains("raise the limit with --max-output-size"), "\(result.errorText)")
      #expect(!FileManager.default.fileExists(atPath: output.path))
      #expect(result.peakMemoryKiB < Self.memoryBoundKiB, "\(result.peakMemoryKiB) KiB")
      // Standard output gets nothing either.
      let piped = try ChildProcess.run(
        FolioBinary.url.path, ["plist", "convert", "--to", format, "-o", "-", input.path])
      #expect(piped.status == 1)
      #expect(piped.standardOutput.isEmpty)
      // The option raises the limit; a conversion within it is written.
      let small = folder.appendingPathComponent("Small.plist")
      try Self.python(
        "import plistlib, sys; s = 'x' * 1000; open(sys.argv[1], 'wb').write(plistlib.dumps([s] * 200, fmt=plistlib.FMT_BINARY))",
        [small.path])
      let refused = try ChildProcess.run(
        FolioBinary.url.path,
        ["plist", "convert", "--to", format, "--max-output-size", "100K", "-o", "-", small.path])
      #expect(refused.status == 1, "\(refused.errorText)")
      let accepted = try ChildProcess.run(
        FolioBinary.url.path,
        ["plist", "convert", "--to", format, "--max-output-size", "1M", "-o", "-", small.path])
      #expect(accepted.status == 0, "\(accepted.errorText)")
      #expect(accepted.standardOutput.count > 200_000 || format == "binary")
    }
  }

  /// A DAG of shared arrays (each holding the next twice, 22 deep: 8 million values once
  /// expanded, within the binary reader's expansion limit thanks to 250,000 filler objects):
  /// XML output is refused before it is built, JSON (2 bytes a value) is written.
  @Test func aDAGOfSharedArraysIsRefusedOrWrittenWithinTheLimit() async throws {
    try await withTemporaryDirectory("bounded-dag") { folder in
      let input = folder.appendingPathComponent("DAG.plist")
      try Self.python(
        """
        import struct, sys
        objects = [bytes([0xA2]) + struct.pack('>II', i + 1, i + 1) for i in range(22)]
        objects += [bytes([0x10, 0])] + [bytes([0x10, 1])] * 250000
        data, offsets = b'bplist00', []
        for item in objects:
            offsets.append(len(data)); data += item
        table = len(data)
        data += b''.join(struct.pack('>I', o) for o in offsets)
        data += bytes(6) + bytes([4, 4]) + struct.pack('>QQQ', len(objects), 0, table)
        open(sys.argv[1], 'wb').write(data)
        """, [input.path])
      let output = folder.appendingPathComponent("Out.plist")
      let xml = try ChildProcess.run(
        FolioBinary.url.path, ["plist", "convert", "--to", "xml", "-o", output.path, input.path])
      #expect(xml.status == 1, "\(xml.errorText)")
      #expect(xml.errorText.contains("[output-too-large]") || xml.errorText.contains("more than"))
      #expect(!FileManager.default.fileExists(atPath: output.path))
      #expect(xml.peakMemoryKiB < Self.memoryBoundKiB, "\(xml.peakMemoryKiB) KiB")
      let json = try ChildProcess.run(
        FolioBinary.url.path, ["plist", "convert", "--to", "json", "-o", output.path, input.path])
      #expect(json.status == 0, "\(json.errorText)")
      #expect(json.peakMemoryKiB < Self.memoryBoundKiB, "\(json.peakMemoryKiB) KiB")
    }
  }

  /// 5,000 entries of one key: the first 100 warnings, then one that counts the rest, in
  /// every format (the binary one built byte by byte: no writer makes one).
  @Test(arguments: ["xml", "json", "openstep", "binary"])
  func duplicateKeyWarningsAreCapped(_ format: String) async throws {
    try await withTemporaryDirectory("bounded-duplicates") { folder in
      let input = folder.appendingPathComponent("Duplicates.plist")
      try Self.python(
        """
        import struct, sys
        form, path, n = sys.argv[1], sys.argv[2], 5000
        if form == 'xml':
            body = '<key>k</key><integer>0</integer>' * n
            text = '<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>' + body + '</dict></plist>'
            data = text.encode()
        elif form == 'json':
            data = ('{' + ','.join(['"k":0'] * n) + '}').encode()
        elif form == 'openstep':
            data = ('{' + 'k = 0; ' * n + '}').encode()
        else:
            objects = [bytes([0xDF, 0x11]) + struct.pack('>H', n) + bytes([1]) * n + bytes([2]) * n,
                       bytes([0x51, 0x6B]), bytes([0x10, 0x00])]
            data, offsets = b'bplist00', []
            for item in objects:
                offsets.append(len(data)); data += item
            table = len(data)
            data += b''.join(struct.pack('>I', o) for o in offsets)
            data += bytes(6) + bytes([4, 1]) + struct.pack('>QQQ', len(objects), 0, table)
        open(path, 'wb').write(data)
        """, [format, input.path])
      let result = try ChildProcess.run(FolioBinary.url.path, ["plist", "lint", input.path])
      #expect(result.status == 0, "\(result.errorText)")
      let warnings = result.errorText.split(separator: "\n").filter {
        $0.contains("FOLIO-PLIST-DUPLICATE-KEY")
      }
      #expect(warnings.count == 101, "\(warnings.count) warnings")
      #expect(
        warnings.last?.contains("4899 more repeated keys are not listed (4999 in all") == true,
        "\(warnings.last ?? "")")
    }
  }

  /// A JSON array past the value limit (set small here; the default is a million): refused
  /// naming the limit and its option, in every command that reads property lists.
  @Test(arguments: [
    ["plist", "lint"], ["plist", "convert", "--to", "xml", "-o", "-"], ["validate"],
  ])
  func valuesPastTheLimitAreRefused(_ command: [String]) async throws {
    try await withTemporaryDirectory("bounded-values") { folder in
      let input = folder.appendingPathComponent("Many.json")
      try Data(("[" + Array(repeating: "0", count: 20_000).joined(separator: ",") + "]").utf8)
        .write(to: input)
      let result = try ChildProcess.run(
        FolioBinary.url.path, command + ["--max-values", "10000", input.path])
      #expect(result.status == 1, "\(result.errorText)")
      let text = result.errorText + result.outputText
      #expect(text.contains("more than 10000 values"), "\(text)")
      if command[0] == "plist" {
        #expect(text.contains("raise the limit with --max-values"), "\(text)")
      }
      let accepted = try ChildProcess.run(
        FolioBinary.url.path, ["plist", "lint", "--max-values", "20001", input.path])
      #expect(accepted.status == 0, "\(accepted.errorText)")
    }
  }

  // MARK: validate's configuration and baseline

  @Test func aHugeConfigurationIsRefusedNamingTheFileAndTheLimit() async throws {
    try await withTemporaryDirectory("bounded-config") { folder in
      let configuration = folder.appendingPathComponent("big.folio.yml")
      // 2 MiB of comments: the limit is 1 MiB; nothing of it is parsed.
      try Data(String(repeating: "# padding padding padding padding\n", count: 62_000).utf8)
        .write(to: configuration)
      let result = try ChildProcess.run(
        FolioBinary.url.path,
        ["validate", "--config", configuration.path, ProjectPaths.sampleInfoPlist.path])
      #expect(result.status == 64, "\(result.errorText)")
      #expect(result.errorText.contains(configuration.path), "\(result.errorText)")
      #expect(
        result.errorText.contains("more than the limit of 1048576 bytes"), "\(result.errorText)")
      #expect(result.peakMemoryKiB < 64 << 10, "\(result.peakMemoryKiB) KiB")
    }
  }

  @Test func aHugeBaselineIsRefusedNamingTheFileAndTheLimit() async throws {
    try await withTemporaryDirectory("bounded-baseline") { folder in
      // 120,000 findings (the limit is 100,000), under the 16 MiB size limit.
      let baseline = folder.appendingPathComponent("baseline.json")
      try Self.python(
        """
        import json, sys
        findings = [{'file': 'a', 'code': 'c', 'message': str(i)} for i in range(120000)]
        json.dump({'version': 1, 'findings': findings}, open(sys.argv[1], 'w'))
        """, [baseline.path])
      let result = try ChildProcess.run(
        FolioBinary.url.path,
        ["validate", "--no-config", "--baseline", baseline.path, ProjectPaths.sampleInfoPlist.path])
      #expect(result.status == 64, "\(result.errorText)")
      #expect(result.errorText.contains(baseline.path), "\(result.errorText)")
      #expect(
        result.errorText.contains("holds 120000 findings, more than the limit of 100000"),
        "\(result.errorText)")
      // Past the size limit it is not even read.
      let sparse = folder.appendingPathComponent("sparse.json")
      #expect(try runProcess("truncate", ["-s", "1G", sparse.path]).status == 0)
      let big = try ChildProcess.run(
        FolioBinary.url.path,
        ["validate", "--no-config", "--baseline", sparse.path, ProjectPaths.sampleInfoPlist.path])
      #expect(big.status == 64, "\(big.errorText)")
      #expect(big.errorText.contains("more than the limit of 16777216 bytes"), "\(big.errorText)")
      #expect(big.peakMemoryKiB < 64 << 10, "\(big.peakMemoryKiB) KiB")
    }
  }

  // MARK: Notebook export

  static func export(_ notebook: URL, to output: URL) throws -> ChildResult {
    try ChildProcess.run(
      FolioBinary.url.path,
      [
        "export", notebook.path, "--to", "txt", "-o", output.path, "--declarations",
        ProjectPaths.sampleInfoPlist.path,
      ])
  }

  /// A notebook package; pages are name and text pairs, not a dictionary, whose `String`
  /// keys would hold two Unicode spellings of one name equal.
  static func notebook(in folder: URL, metadata: String, pages: [(String, String)]) throws
    -> URL
  {
    let package = folder.appendingPathComponent("Hostile.examplenotebook")
    let pagesFolder = package.appendingPathComponent("pages")
    try FileManager.default.createDirectory(at: pagesFolder, withIntermediateDirectories: true)
    try Data(metadata.utf8).write(to: package.appendingPathComponent("metadata.json"))
    for (name, text) in pages {
      try Data(text.utf8).write(to: pagesFolder.appendingPathComponent(name))
    }
    return package
  }

  static let page = "0B0C7E8A-3F2D-4C1B-9A6E-5D4F3E2A1B0C"

  @Test func aHugeTitleIsRefusedNamingTheLimit() async throws {
    try await withTemporaryDirectory("bounded-title") { folder in
      let title = String(repeating: "t", count: 100_000)
      let notebook = try Self.notebook(
        in: folder, metadata: "{\"title\": \"\(title)\", \"pageOrder\": [\"\(Self.page)\"]}",
        pages: [("\(Self.page).txt", "one\n")])
      let output = folder.appendingPathComponent("out.txt")
      let result = try Self.export(notebook, to: output)
      #expect(result.status == 1, "\(result.errorText)")
      #expect(
        result.errorText.contains("the title is 100000 bytes, more than the limit of 65536"),
        "\(result.errorText)")
      #expect(!FileManager.default.fileExists(atPath: output.path))
    }
  }

  @Test func aHugeMetadataFileIsRefusedBeforeItIsRead() async throws {
    try await withTemporaryDirectory("bounded-metadata") { folder in
      let notebook = try Self.notebook(
        in: folder, metadata: "{}", pages: [("\(Self.page).txt", "one\n")])
      let metadata = notebook.appendingPathComponent("metadata.json")
      #expect(try runProcess("truncate", ["-s", "1G", metadata.path]).status == 0)
      let result = try Self.export(notebook, to: folder.appendingPathComponent("out.txt"))
      #expect(result.status == 1, "\(result.errorText)")
      #expect(
        result.errorText.contains("more than the limit of 8388608 bytes"), "\(result.errorText)")
      #expect(result.peakMemoryKiB < 64 << 10, "\(result.peakMemoryKiB) KiB")
    }
  }

  /// 150,000 entries naming one page: exported once, with ten warnings and one count.
  @Test func aPageListedManyTimesIsExportedOnceAndSaidSo() async throws {
    try await withTemporaryDirectory("bounded-repeats") { folder in
      let order = Array(repeating: "\"\(Self.page)\"", count: 150_000).joined(separator: ",")
      let notebook = try Self.notebook(
        in: folder, metadata: "{\"title\": \"T\", \"pageOrder\": [\(order)]}",
        pages: [("\(Self.page).txt", "only page\n")])
      let output = folder.appendingPathComponent("out.txt")
      let result = try Self.export(notebook, to: output)
      #expect(result.status == 0, "\(result.errorText)")
      let text = try String(contentsOf: output, encoding: .utf8)
      #expect(text.components(separatedBy: "only page").count == 2)
      let warnings = result.errorText.split(separator: "\n").filter {
        $0.contains("FOLIO-NOTEBOOK-REPEATED-PAGE")
      }
      #expect(warnings.count == 11, "\(result.errorText.prefix(2000))")
      #expect(
        warnings.last?.contains("149989 more repeated entries in pageOrder (149999 in all)")
          == true, "\(warnings.last ?? "")")
      #expect(result.peakMemoryKiB < Self.memoryBoundKiB, "\(result.peakMemoryKiB) KiB")
    }
  }

  /// Item 4: `ABC….txt` and `abc….txt` (this file system is case-sensitive) name one page;
  /// the export is refused naming both, so neither text is lost without a word.
  @Test func twoFilesForOnePageAreRefusedNamingBoth() async throws {
    try await withTemporaryDirectory("bounded-page-case") { folder in
      let upper = Self.page
      let lower = Self.page.lowercased()
      let notebook = try Self.notebook(
        in: folder, metadata: "{\"title\": \"T\", \"pageOrder\": [\"\(upper)\"]}",
        pages: [("\(upper).txt", "upper text\n"), ("\(lower).txt", "lower text\n")])
      let output = folder.appendingPathComponent("out.txt")
      let result = try Self.export(notebook, to: output)
      #expect(result.status == 1, "\(result.errorText)")
      #expect(result.errorText.contains("pages/\(upper).txt"), "\(result.errorText)")
      #expect(result.errorText.contains("pages/\(lower).txt"), "\(result.errorText)")
      #expect(result.errorText.contains("duplicate-page"), "\(result.errorText)")
      #expect(!FileManager.default.fileExists(atPath: output.path))
    }
  }

  /// Item 4: two files whose names are one name in two Unicode normalisations, in any
  /// folder an export reads as a file wrapper: refused naming both spellings.
  @Test func twoSpellingsOfOneNameAreRefusedNamingBoth() async throws {
    try await withTemporaryDirectory("bounded-normalisation") { folder in
      let notebook = try Self.notebook(
        in: folder, metadata: "{\"title\": \"T\", \"pageOrder\": [\"\(Self.page)\"]}",
        pages: [
          ("\(Self.page).txt", "page\n"), ("caf\u{E9}.note", "composed\n"),
          ("cafe\u{301}.note", "decomposed\n"),
        ])
      let names = try FileManager.default.contentsOfDirectory(
        atPath: notebook.appendingPathComponent("pages").path)
      #expect(Set(names.map { Array($0.utf8) }).count == 3)
      let result = try Self.export(notebook, to: folder.appendingPathComponent("out.txt"))
      #expect(result.status == 1, "\(result.errorText)")
      #expect(result.errorText.contains("caf\\u{E9}.note"), "\(result.errorText)")
      #expect(result.errorText.contains("cafe\\u{301}.note"), "\(result.errorText)")
      #expect(
        result.errorText.contains("one name in two Unicode normalisations"), "\(result.errorText)")
    }
  }
}
