import Archives
import FolioCommands
import FolioTestSupport
import Foundation
import Testing

private func makeContext(_ folder: URL, input: Data = Data(), environment: [String: String] = [:])
  -> CommandContext
{
  CommandContext(
    standardOutput: .buffer(), standardError: .buffer(), readStandardInput: { input },
    environment: environment, currentDirectory: folder.path)
}

/// Runs `folio export …` in `folder`, returning the status and both streams.
private func folio(
  _ arguments: [String], in folder: URL, input: Data = Data(), environment: [String: String] = [:]
) async -> (status: Int32, output: String, error: String) {
  let context = makeContext(folder, input: input, environment: environment)
  let status = await FolioMain.run(["export"] + arguments, context: context)
  return (status, context.standardOutput.text, context.standardError.text)
}

private let declarations = ["--declarations", ProjectPaths.sampleInfoPlist.path]

private func copySample(into folder: URL) throws -> URL {
  let copy = folder.appendingPathComponent("Notebook.examplenotebook")
  try FileManager.default.copyItem(at: ProjectPaths.sampleNotebook, to: copy)
  return copy
}

@Suite struct ExportCommandTests {
  @Test func notebookTypeComesFromTheDeclarationsFile() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      _ = try copySample(into: folder)
      let without = await folio(["Notebook.examplenotebook", "--to", "txt"], in: folder)
      #expect(without.status == 1)
      #expect(without.error.contains("no exporter leads from public.folder"))

      let with = await folio(
        ["Notebook.examplenotebook", "--to", "txt"] + declarations, in: folder)
      #expect(with.status == 0, "\(with.error)")
      #expect(with.output.contains("to \(folder.path)/Notebook.txt (public.utf8-plain-text)"))
      let text = try String(
        contentsOf: folder.appendingPathComponent("Notebook.txt"), encoding: .utf8)
      #expect(text.hasPrefix("Field Notes\n\u{0C}\nFolio keeps a notebook as a folder"))
    }
  }

  @Test func exportWaitsForAWritersLockOnThePackageAndSaysSo() async throws {
    try await withTemporaryDirectory("cli-export-lock") { (folder: URL) async throws in
      let package = try copySample(into: folder)
      let writer = try await PackageLock.acquire(
        .exclusive, on: package, options: LockOptions(timeout: .zero))
      let context = makeContext(folder)
      let export = Task {
        await FolioMain.run(
          ["export", "Notebook.examplenotebook", "--to", "txt"] + declarations, context: context)
      }
      // The export announces its wait and writes nothing while the writer holds the package.
      var waited = false
      for _ in 0..<200 where !waited {
        try await Task.sleep(for: .milliseconds(25))
        waited = context.standardError.text.contains("waiting for shared lock on")
      }
      #expect(waited, "\(context.standardError.text)")
      #expect(
        !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Notebook.txt").path))
      writer.release()
      #expect(await export.value == 0, "\(context.standardError.text)")
      #expect(
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("Notebook.txt").path))
    }
  }

  @Test func declarationsAlsoComeFromFolioTypesPath() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      _ = try copySample(into: folder)
      let types = folder.appendingPathComponent("types")
      try FileManager.default.createDirectory(at: types, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: ProjectPaths.sampleInfoPlist, to: types.appendingPathComponent("Notebook.plist"))
      let result = await folio(
        ["Notebook.examplenotebook", "--to", "text/markdown"], in: folder,
        environment: ["FOLIO_TYPES_PATH": types.path, "HOME": folder.path])
      #expect(result.status == 0, "\(result.error)")
      #expect(
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("Notebook.md").path))
    }
  }

  @Test func listShowsEveryReachableTypeWithItsRoute() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      let result = await folio(
        ["--list", ProjectPaths.sampleNotebook.path] + declarations, in: folder)
      #expect(result.status == 0)
      let lines = result.output.split(separator: "\n").map(String.init)
      #expect(
        lines.first == "\(ProjectPaths.sampleNotebook.path): com.example.notebook (by its name)")
      let rows = lines.dropFirst().map {
        $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      }
      let byType = Dictionary(
        rows.map { ($0[0], Array($0.dropFirst())) }, uniquingKeysWith: { a, _ in a })
      #expect(byType["public.utf8-plain-text"] == ["Notebook.txt", "notebook-to-text"])
      #expect(byType["public.html"] == ["Notebook.html", "notebook-to-html"])
      #expect(byType["public.zip-archive"] == ["Notebook.examplenotebook.zip", "pack-zip"])
      #expect(
        byType["public.utf16-plain-text"] == [
          "Notebook-utf16.txt", "notebook-to-text", "→", "encode-utf16",
        ])
      #expect(
        byType["org.gnu.gnu-zip-tar-archive"] == ["Notebook.examplenotebook.tar.gz", "pack-tar.gz"])
    }
  }

  @Test func explainNamesTheInputTypeAndEveryStep() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      let result = await folio(
        [
          ProjectPaths.sampleNotebook.path, "--to", "public.utf16-plain-text", "--explain", "-o",
          "out.txt",
        ] + declarations,
        in: folder)
      #expect(result.status == 0, "\(result.error)")
      #expect(result.output.contains("is com.example.notebook (conforms to com.apple.package"))
      #expect(result.output.contains("[by its name]"))
      #expect(result.output.contains("target public.utf16-plain-text"))
      #expect(
        result.output.contains(
          "step 1: notebook-to-text (com.example.notebook → public.utf8-plain-text)\n"))
      #expect(
        result.output.contains(
          "step 2: encode-utf16 (public.utf8-plain-text → public.utf16-plain-text), registered for public.plain-text → public.utf16-plain-text"
        ))
      #expect(
        try Data(contentsOf: folder.appendingPathComponent("out.txt")).prefix(2)
          == Data([0xFF, 0xFE]))
    }
  }

  @Test func unknownTypeIsAUsageError() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      let result = await folio(
        [ProjectPaths.sampleNotebook.path, "--to", "nonsense-type"], in: folder)
      #expect(result.status == 64)
      #expect(result.error.hasPrefix("error: unknown type 'nonsense-type' for '--to'"))
      #expect(result.error.contains("USAGE: folio export"))
    }
  }

  @Test func noRouteFailsNamingBothTypes() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      let result = await folio([ProjectPaths.sampleInfoPlist.path, "--to", "html"], in: folder)
      #expect(result.status == 1)
      // An XML property list by its content where the desktop database makes `.plist` a
      // weak name (`com.apple.xml-property-list`), a property list by its name without it.
      #expect(
        result.error.contains("no exporter leads from com.apple.property-list")
          || result.error.contains("no exporter leads from com.apple.xml-property-list"))
      #expect(result.error.contains("to public.html"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
  }

  @Test func lossyTextIsRefusedWithTheCharactersPosition() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      try Data("plain line\nthe price is 5 €\n".utf8).write(
        to: folder.appendingPathComponent("notes.txt"))
      let result = await folio(["notes.txt", "--to", "text/plain;charset=iso-8859-1"], in: folder)
      #expect(result.status == 1)
      #expect(
        result.error.hasPrefix(
          "error: notes.txt:2:16: 'notes.txt' cannot become Latin-1 without loss: '€' (U+20AC)"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"])
    }
  }

  @Test func missingPageIsRefusedNamingIt() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      let copy = try copySample(into: folder)
      try FileManager.default.removeItem(
        at: copy.appendingPathComponent("pages/3C5B8F20-E41D-4A6B-9C7E-2D8A1E3F0B84.txt"))
      let result = await folio(
        ["Notebook.examplenotebook", "--to", "json"] + declarations, in: folder)
      #expect(result.status == 1)
      #expect(
        result.error.contains(
          "page 3C5B8F20-E41D-4A6B-9C7E-2D8A1E3F0B84 is listed in pageOrder but 'Notebook.examplenotebook/pages/3C5B8F20-E41D-4A6B-9C7E-2D8A1E3F0B84.txt' does not exist"
        ))
      #expect(
        !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Notebook.json").path)
      )
    }
  }

  @Test func existingOutputIsRefusedUnlessForced() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      try Data("keep me".utf8).write(to: folder.appendingPathComponent("Notebook.html"))
      let refused = await folio(
        [ProjectPaths.sampleNotebook.path, "--to", "html"] + declarations, in: folder)
      #expect(refused.status == 1)
      #expect(
        refused.error
          == "error: '\(folder.path)/Notebook.html' already exists; use --force to replace it [output-exists]\n"
      )
      #expect(
        try String(contentsOf: folder.appendingPathComponent("Notebook.html"), encoding: .utf8)
          == "keep me")
      let forced = await folio(
        [ProjectPaths.sampleNotebook.path, "--to", "html", "--force"] + declarations, in: folder)
      #expect(forced.status == 0)
      #expect(
        try String(contentsOf: folder.appendingPathComponent("Notebook.html"), encoding: .utf8)
          .hasPrefix("<!DOCTYPE html>"))
    }
  }

  @Test func outputFolderReceivesTheDefaultName() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("exports"), withIntermediateDirectories: true)
      let result = await folio(
        [ProjectPaths.sampleNotebook.path, "--to", "json", "-o", "exports"] + declarations,
        in: folder)
      #expect(result.status == 0, "\(result.error)")
      #expect(
        try FileManager.default.contentsOfDirectory(
          atPath: folder.appendingPathComponent("exports").path)
          == ["Notebook.json"])
    }
  }

  @Test func standardInputToStandardOutput() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      let result = await folio(
        ["-", "--to", "public.utf16-external-plain-text"], in: folder, input: Data("hé\n".utf8))
      #expect(result.status == 0, "\(result.error)")
      #expect(Data(result.output.utf8).isEmpty == false)
      let context = makeContext(folder, input: Data("hé\n".utf8))
      _ = await FolioMain.run(
        ["export", "-", "--to", "public.utf16-external-plain-text", "-o", "-"], context: context)
      #expect(
        context.standardOutput.data == Data([0xFE, 0xFF, 0x00, 0x68, 0x00, 0xE9, 0x00, 0x0A]))
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
  }

  @Test func standardInputThatIsAPackageTypeIsAUsageError() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      let result = await folio(
        ["-", "--from", "examplenotebook", "--to", "txt"] + declarations, in: folder,
        input: Data("x".utf8))
      #expect(result.status == 64)
      #expect(result.error.contains("standard input can only carry a single file"))
    }
  }

  @Test func progressJSONReportsEveryPageAndEndsWithDone() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      let result = await folio(
        [ProjectPaths.sampleNotebook.path, "--to", "txt", "--progress", "json"] + declarations,
        in: folder)
      #expect(result.status == 0)
      let events = result.error.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
      #expect(events.filter { $0["event"] as? String == "file-finished" }.count == 6)
      let done = try #require(events.last)
      #expect(done["event"] as? String == "done")
      #expect(done["status"] as? String == "ok")
      #expect(done["completedFiles"] as? Int == 6)
    }
  }

  @Test func batchReportsEachInputAndOneFailureDoesNotStopTheOthers() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      let good = try copySample(into: folder)
      let second = folder.appendingPathComponent("Second.examplenotebook")
      try FileManager.default.copyItem(at: good, to: second)
      let broken = folder.appendingPathComponent("Broken.examplenotebook")
      try FileManager.default.copyItem(at: good, to: broken)
      try Data("{ not json".utf8).write(to: broken.appendingPathComponent("metadata.json"))
      let out = folder.appendingPathComponent("out")
      try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
      let result = await folio(
        [
          "--to", "md", "-o", "out", "--jobs", "2", "Notebook.examplenotebook",
          "Broken.examplenotebook", "Second.examplenotebook", "Missing.examplenotebook",
        ]
          + declarations, in: folder)
      #expect(result.status == 1)
      #expect(
        result.output.contains(
          "ok      Notebook.examplenotebook -> \(out.path)/Notebook.md (net.daringfireball.markdown)"
        ))
      #expect(result.output.contains("ok      Second.examplenotebook -> \(out.path)/Second.md"))
      #expect(result.output.hasSuffix("2 of 4 exported, 2 failed\n"))
      #expect(result.error.contains("failed  Broken.examplenotebook: "))
      #expect(result.error.contains("metadata.json' is not valid JSON"))
      #expect(
        result.error.contains(
          "failed  Missing.examplenotebook: 'Missing.examplenotebook' does not exist"))
      #expect(
        Set(try FileManager.default.contentsOfDirectory(atPath: out.path)) == [
          "Notebook.md", "Second.md",
        ])
    }
  }

  @Test func batchShowsOneCombinedProgressDisplay() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      let first = try copySample(into: folder)
      try FileManager.default.copyItem(
        at: first, to: folder.appendingPathComponent("Two.examplenotebook"))
      let result = await folio(
        ["--to", "txt", "--progress", "json", "Notebook.examplenotebook", "Two.examplenotebook"]
          + declarations,
        in: folder)
      #expect(result.status == 0, "\(result.error)")
      let events = result.error.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
      #expect(events.filter { $0["event"] as? String == "done" }.count == 1)
      #expect(events.last?["completedFiles"] as? Int == 12)
      #expect(events.last?["totalFiles"] as? Int == 12)
    }
  }

  @Test func forceReplacesAnExistingPackageOutput() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      try Data("Title\n\u{0C}\nonly page\n".utf8).write(
        to: folder.appendingPathComponent("notes.txt"))
      let target = folder.appendingPathComponent("notes.examplenotebook")
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
      try Data("old".utf8).write(to: target.appendingPathComponent("stale.txt"))
      let refused = await folio(
        ["notes.txt", "--to", "examplenotebook"] + declarations, in: folder)
      #expect(refused.status == 1)
      #expect(refused.error.contains("already exists; use --force"))
      let forced = await folio(
        ["notes.txt", "--to", "examplenotebook", "--force"] + declarations, in: folder)
      #expect(forced.status == 0, "\(forced.error)")
      #expect(
        Set(try FileManager.default.contentsOfDirectory(atPath: target.path)) == [
          "metadata.json", "pages",
        ])
      let metadata = try String(
        contentsOf: target.appendingPathComponent("metadata.json"), encoding: .utf8)
      #expect(metadata.contains("\"title\": \"Title\""))
      #expect(
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == [
          "notes.txt", "notes.examplenotebook",
        ])
    }
  }

  @Test func batchOutputMustBeAFolder() async throws {
    try await withTemporaryDirectory("cli-export") { (folder: URL) async throws in
      let result = await folio(["--to", "zip", "-o", "x.zip", "a", "b"], in: folder)
      #expect(result.status == 64)
      #expect(result.error.contains("'-o' must name an existing folder"))
    }
  }
}

/// The built `folio` as a user runs it; a missing binary is built first, or the test fails.
@Suite struct ExportEndToEndTests {
  @Test func builtBinaryExportsTheSampleToZipAndText() throws {
    let folder = try makeTemporaryDirectory("e2e-export")
    defer { removeTree(folder) }
    let zip = try FolioBinary.run(
      ["export", ProjectPaths.sampleNotebook.path, "--to", "zip", "--quiet"] + declarations,
      in: folder)
    #expect(zip.status == 0, "\(zip.errorText)")
    let listing = try runProcess(
      "unzip", ["-Z1", folder.appendingPathComponent("Notebook.examplenotebook.zip").path])
    #expect(
      listing.outputText.contains(
        "Notebook.examplenotebook/pages/5E8F2B4A-0A73-4C9E-B16A-4F0C3D5E2BA6.txt"))
    let text = try FolioBinary.run(
      ["export", ProjectPaths.sampleNotebook.path, "--to", "txt", "-o", "-"] + declarations,
      in: folder)
    #expect(text.status == 0)
    #expect(text.outputText.hasPrefix("Field Notes\n\u{0C}\n"))
    #expect(text.errorText == "")
  }

  @Test func builtBinaryRefusesAnUnknownTypeWithExitCode64() throws {
    let folder = try makeTemporaryDirectory("e2e-export")
    defer { removeTree(folder) }
    let result = try FolioBinary.run(
      ["export", ProjectPaths.sampleNotebook.path, "--to", "no-such-type"], in: folder)
    #expect(result.status == 64)
    #expect(result.errorText.contains("unknown type 'no-such-type'"))
  }
}

/// Every command with `--jobs` takes its default from `FOLIO_JOBS` through one rule, so a
/// bad value is the same usage error for each, and a good one is honoured by batch export too.
@Suite struct JobsOptionTests {
  @Test(arguments: [
    ["pack", "Notebook.examplenotebook"], ["expand", "a.zip"],
    ["export", "--to", "txt", "a.txt", "b.txt"],
  ])
  func aBadFolioJobsIsTheSameUsageErrorForEveryCommand(words: [String]) async throws {
    try await withTemporaryDirectory("jobs") { folder in
      let context = makeContext(folder, environment: ["FOLIO_JOBS": "0"])
      let status = await FolioMain.run(words, context: context)
      #expect(status == 64)
      #expect(
        context.standardError.text.contains("invalid FOLIO_JOBS '0'"),
        "\(context.standardError.text)")
    }
  }

  @Test func batchExportRunsWithTheJobsOfFolioJobs() async throws {
    try await withTemporaryDirectory("jobs") { folder in
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
      for name in ["a", "b", "c"] {
        try Data("\(name)\n".utf8).write(to: folder.appendingPathComponent("\(name).txt"))
      }
      let result = await folio(
        ["--to", "public.utf16-plain-text", "a.txt", "b.txt", "c.txt", "-o", "out"], in: folder,
        environment: ["FOLIO_JOBS": "1"])
      #expect(result.status == 0, "\(result.error)")
      let written = try FileManager.default.contentsOfDirectory(
        atPath: folder.appendingPathComponent("out").path)
      #expect(written.count == 3, "\(written)")
    }
  }
}
