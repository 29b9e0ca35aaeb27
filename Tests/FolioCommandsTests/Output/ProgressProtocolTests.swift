import FolioTestSupport
import Foundation
import Testing

/// `--progress json` as a documented protocol: every event the commands emit validates
/// against `Schemas/progress-events.schema.json` (with Debian's python3-jsonschema, a real
/// JSON Schema 2020-12 validator), and the stream holds nothing but those events.
@Suite struct ProgressProtocolTests {
  /// Validates each line with `jsonschema`; returns the problems, one per bad line.
  private func schemaProblems(_ lines: [String], in folder: URL) throws -> [String] {
    let file = folder.appendingPathComponent("events-\(UUID().uuidString).jsonl")
    try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    let script = """
      import json, sys
      import jsonschema
      schema = json.load(open(sys.argv[1]))
      jsonschema.Draft202012Validator.check_schema(schema)
      validator = jsonschema.Draft202012Validator(schema)
      for number, line in enumerate(open(sys.argv[2]), 1):
          try:
              event = json.loads(line)
          except ValueError as error:
              print(f"line {number}: not JSON: {error}: {line.strip()}")
              continue
          for error in validator.iter_errors(event):
              print(f"line {number}: {error.message}: {line.strip()}")
      """
    let schema = ProjectPaths.root.appendingPathComponent("Schemas/progress-events.schema.json")
    // Debian's interpreter and its python3-jsonschema, which scripts/bootstrap.sh installs.
    let result = try runProcess("/usr/bin/python3", ["-c", script, schema.path, file.path])
    #expect(result.status == 0, "\(result.errorText)")
    return result.outputText.split(separator: "\n").map(String.init)
  }

  private func events(_ lines: [String]) throws -> [[String: Any]] {
    try lines.map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  private func makePackage(_ name: String, in folder: URL, files: Int = 3) throws -> URL {
    let package = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(
      at: package.appendingPathComponent("pages"), withIntermediateDirectories: true)
    for index in 0..<files {
      try Data(repeating: UInt8(index), count: 1000 * (index + 1)).write(
        to: package.appendingPathComponent("pages/\(index).txt"))
    }
    try FileManager.default.createSymbolicLink(
      atPath: package.appendingPathComponent("latest").path, withDestinationPath: "pages/0.txt")
    return package
  }

  /// Runs a command with `--progress json`; its standard error, line by line.
  private func run(_ words: [String], in folder: URL) async -> (Int32, String, [String]) {
    let (status, output, errors) = await runFolio(words + ["--progress", "json"], in: folder)
    return (status, output, errors.split(separator: "\n").map(String.init))
  }

  @Test func packExpandAndExportEmitOnlyValidEvents() async throws {
    try await withTemporaryDirectory("protocol") { folder in
      _ = try makePackage("Book.examplenotebook", in: folder)
      var all: [String] = []
      for words in [
        ["pack", "Book.examplenotebook", "-o", "Book.zip"],
        ["pack", "Book.examplenotebook", "-o", "Book.tar.gz"],
        ["expand", "Book.zip", "-o", "FromZip"],
        ["expand", "Book.tar.gz", "-o", "FromTar"],
        ["export", "Book.examplenotebook", "--to", "tar", "-o", "Exported.tar"],
      ] {
        let (status, _, lines) = await run(words, in: folder)
        #expect(status == 0, "\(words): \(lines)")
        let parsed = try events(lines)
        #expect(parsed.first?["event"] as? String == "start", "\(words)")
        #expect(parsed.first?["version"] as? Int == 1)
        #expect(parsed.last?["event"] as? String == "done")
        #expect(parsed.last?["status"] as? String == "ok")
        #expect(parsed.filter { $0["event"] as? String == "start" }.count == 1)
        all += lines
      }
      #expect(try schemaProblems(all, in: folder) == [])
    }
  }

  @Test func aTarsFileTotalIsUnknownNotZero() async throws {
    try await withTemporaryDirectory("protocol-tar") { folder in
      _ = try makePackage("Big.examplenotebook", in: folder, files: 40)
      #expect(
        await runFolio(["pack", "Big.examplenotebook", "-o", "Big.tar.gz", "-q"], in: folder).0 == 0
      )
      let (status, output, lines) = await run(["expand", "Big.tar.gz", "-o", "Out"], in: folder)
      #expect(status == 0)
      let parsed = try events(lines)
      for event in parsed where ["bytes", "done"].contains(event["event"] as? String) {
        #expect(event["totalFiles"] is NSNull, "\(event)")
      }
      // Files and links are counted as the summary counts them: 40 files and 1 link.
      #expect(output.hasPrefix("expanded 40 files, 1 symbolic link ("))
      #expect(parsed.last?["completedFiles"] as? Int == 41)
      #expect(try schemaProblems(lines, in: folder) == [])
    }
  }

  @Test func aFailureIsAnEventWithItsCodeAndNothingElseReachesTheStream() async throws {
    try await withTemporaryDirectory("protocol-failure") { folder in
      _ = try makePackage("Book.examplenotebook", in: folder)
      #expect(await runFolio(["pack", "Book.examplenotebook", "-q"], in: folder).0 == 0)
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("Taken"), withIntermediateDirectories: true)
      for (words, code) in [
        (["expand", "Book.examplenotebook.zip", "-o", "Taken"], "output-exists"),
        (["pack", "Book.examplenotebook"], "output-exists"),
        (["pack", "/nonexistent"], "archive-unreadable"),
      ] {
        let (status, _, lines) = await run(words, in: folder)
        #expect(status == 1, "\(words)")
        let parsed = try events(lines)
        let errors = parsed.filter { $0["event"] as? String == "error" }
        #expect(errors.count == 1, "\(words): \(lines)")
        #expect(errors.first?["message"] as? String != nil)
        if code != "archive-unreadable" { #expect(errors.first?["code"] as? String == code) }
        #expect(parsed.last?["status"] as? String == "failed")
        #expect(try schemaProblems(lines, in: folder) == [], "\(words)")
      }
    }
  }

  @Test func batchEventsCarryTheirInputAndAFailedInputFailsTheBatch() async throws {
    try await withTemporaryDirectory("protocol-batch") { folder in
      _ = try makePackage("A.examplenotebook", in: folder)
      _ = try makePackage("B.examplenotebook", in: folder)
      let (status, _, lines) = await run(
        [
          "export", "--to", "zip", "A.examplenotebook", "B.examplenotebook",
          "Missing.examplenotebook",
        ],
        in: folder)
      #expect(status == 1)
      let parsed = try events(lines)
      #expect(
        parsed.first?["inputs"] as? [String] == [
          "A.examplenotebook", "B.examplenotebook", "Missing.examplenotebook",
        ])
      for event in parsed where !["start", "done"].contains(event["event"] as? String) {
        #expect(event["input"] is String, "\(event)")
      }
      let finished = parsed.filter { $0["event"] as? String == "input-finished" }
      #expect(finished.map { $0["status"] as? String } == ["ok", "ok", "failed"])
      #expect(
        parsed.contains {
          $0["event"] as? String == "file-started" && $0["input"] as? String == "B.examplenotebook"
        })
      let failure = parsed.first { $0["event"] as? String == "error" }
      #expect(failure?["input"] as? String == "Missing.examplenotebook")
      #expect(parsed.last?["status"] as? String == "failed")
      #expect(parsed.last?["failedInputs"] as? Int == 1)
      #expect(try schemaProblems(lines, in: folder) == [])
    }
  }
}
