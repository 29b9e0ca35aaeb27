import FolioCommands
import FolioTestSupport
import Foundation
import Testing

private func makeContext(_ folder: URL, environment: [String: String] = [:]) -> CommandContext {
  CommandContext(
    standardOutput: .buffer(), standardError: .buffer(), environment: environment,
    currentDirectory: folder.path)
}

private func makePackage(in folder: URL, name: String = "Note.examplenotebook") throws -> URL {
  let package = folder.appendingPathComponent(name)
  try FileManager.default.createDirectory(
    at: package.appendingPathComponent("pages"), withIntermediateDirectories: true)
  try Data(#"{"title":"T","pageOrder":[]}"#.utf8).write(
    to: package.appendingPathComponent("metadata.json"))
  for index in 0..<3 {
    try Data(String(repeating: "page \(index) ", count: 200).utf8)
      .write(to: package.appendingPathComponent("pages/\(index).txt"))
  }
  return package
}

@Suite struct PackCommandTests {
  @Test func packsBesideTheWorkingFolderWithTheFormatsExtension() async throws {
    try await withTemporaryDirectory("cli-pack") { folder in
      _ = try makePackage(in: folder)
      let context = makeContext(folder)
      let status = await FolioMain.run(["pack", "Note.examplenotebook"], context: context)
      #expect(status == 0, "\(context.standardError.text)")
      let archive = folder.appendingPathComponent("Note.examplenotebook.zip")
      #expect(try runProcess("unzip", ["-t", archive.path]).status == 0)
      #expect(context.standardOutput.text.hasPrefix("packed 4 files"))
      #expect(context.standardError.text == "")

      let tar = await FolioMain.run(
        ["pack", "Note.examplenotebook", "--format", "tar.xz", "--quiet"],
        context: makeContext(folder))
      #expect(tar == 0)
      #expect(
        FileManager.default.fileExists(
          atPath: folder.appendingPathComponent("Note.examplenotebook.tar.xz").path))
    }
  }

  @Test func formatFollowsTheOutputsExtension() async throws {
    try await withTemporaryDirectory("cli-pack-ext") { folder in
      _ = try makePackage(in: folder)
      let context = makeContext(folder)
      #expect(
        await FolioMain.run(
          ["pack", "Note.examplenotebook", "-o", "out/n.tar.bz2", "-q"], context: context) == 1)
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
      let again = makeContext(folder)
      #expect(
        await FolioMain.run(
          ["pack", "Note.examplenotebook", "-o", "out/n.tar.bz2", "-q"], context: again) == 0)
      #expect(again.standardOutput.text == "")
      let listing = try runProcess(
        "bsdtar", ["-tf", folder.appendingPathComponent("out/n.tar.bz2").path])
      #expect(listing.outputText.contains("Note.examplenotebook/pages/2.txt"))
    }
  }

  @Test func badValuesAreUsageErrors() async throws {
    try await withTemporaryDirectory("cli-pack-usage") { folder in
      _ = try makePackage(in: folder)
      for words in [
        ["pack", "Note.examplenotebook", "--format", "rar"],
        ["pack", "Note.examplenotebook", "--format", "tar", "--level", "3"],
        ["pack", "Note.examplenotebook", "--format", "tar.gz", "--level", "12"],
        ["pack", "Note.examplenotebook", "-o", "n.unknown"],
        ["pack", "Note.examplenotebook", "--progress", "fancy"],
        ["pack", "Note.examplenotebook", "-o", "-", "--format", "zip"],
        ["pack", "Note.examplenotebook", "--lock-timeout", "soon"],
        ["pack", "Note.examplenotebook", "--keep-parent", "--no-keep-parent"],
      ] {
        let context = makeContext(folder)
        #expect(await FolioMain.run(words, context: context) == 64, "\(words)")
        #expect(context.standardError.text.hasPrefix("error: "), "\(words)")
      }
      let context = makeContext(folder, environment: ["SOURCE_DATE_EPOCH": "yesterday"])
      #expect(await FolioMain.run(["pack", "Note.examplenotebook"], context: context) == 64)
    }
  }

  @Test func jsonProgressWritesOneEventPerLine() async throws {
    try await withTemporaryDirectory("cli-pack-json") { folder in
      _ = try makePackage(in: folder)
      let context = makeContext(folder)
      let status = await FolioMain.run(
        ["pack", "Note.examplenotebook", "--progress", "json", "-o", "n.tar.gz"], context: context)
      #expect(status == 0)
      let lines = context.standardError.text.split(separator: "\n")
      var kinds: [String] = []
      for line in lines {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        kinds.append(object?["event"] as? String ?? "?")
        if object?["event"] as? String == "done" {
          #expect(object?["status"] as? String == "ok")
          #expect(object?["completedFiles"] as? Int == 4)
          #expect(object?["totalFiles"] as? Int == 4)
          #expect(object?["completedBytes"] as? Int == object?["totalBytes"] as? Int)
        }
      }
      #expect(kinds.filter { $0 == "file-started" }.count == 4)
      #expect(kinds.filter { $0 == "file-finished" }.count == 4)
      #expect(kinds.last == "done")
      #expect(kinds.filter { $0 == "done" }.count == 1)
    }
  }

  @Test func failureReportsThePathAndLeavesNoArchive() async throws {
    try await withTemporaryDirectory("cli-pack-fail") { folder in
      let package = try makePackage(in: folder)
      #expect(mkfifo(package.appendingPathComponent("pipe").path, 0o600) == 0)
      let context = makeContext(folder)
      let status = await FolioMain.run(
        ["pack", "Note.examplenotebook", "--progress", "json"], context: context)
      #expect(status == 1)
      #expect(context.standardError.text.contains("Note.examplenotebook/pipe"))
      #expect(context.standardError.text.contains(#""status":"failed""#))
      let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      #expect(left == ["Note.examplenotebook"])
    }
  }

  @Test func sourceDateEpochMakesPacksReproducible() async throws {
    try await withTemporaryDirectory("cli-pack-epoch") { folder in
      _ = try makePackage(in: folder)
      let environment = ["SOURCE_DATE_EPOCH": "1600000000"]
      #expect(
        await FolioMain.run(
          ["pack", "Note.examplenotebook", "-o", "a.zip", "-q"],
          context: makeContext(folder, environment: environment)) == 0)
      try await Task.sleep(for: .milliseconds(1100))
      try Data("touched".utf8).write(
        to: folder.appendingPathComponent("Note.examplenotebook/pages/0.txt"))
      try Data(String(repeating: "page 0 ", count: 200).utf8).write(
        to: folder.appendingPathComponent("Note.examplenotebook/pages/0.txt"))
      #expect(
        await FolioMain.run(
          ["pack", "Note.examplenotebook", "-o", "b.zip", "-q"],
          context: makeContext(folder, environment: environment)) == 0)
      let first = try Data(contentsOf: folder.appendingPathComponent("a.zip"))
      let second = try Data(contentsOf: folder.appendingPathComponent("b.zip"))
      #expect(first == second)
    }
  }

  @Test func interruptCancelsCleanlyWithExitCode130() async throws {
    let media = try BenchmarkCorpus.small().appendingPathComponent("media.examplenotebook")
    try await withTemporaryDirectory("cli-pack-sigint") { folder in
      let process = try ChildProcess(
        try FolioBinary.requireBuilt().path,
        [
          "pack", media.path, "-o", folder.appendingPathComponent("m.tar.xz").path,
          "--progress", "json",
        ], standardError: .pipe)
      let errors = try #require(process.standardErrorPipe)
      // Wait for the first byte event: the archive is being written.
      var seen = Data()
      while !String(decoding: seen, as: UTF8.self).contains(#""event":"bytes""#) {
        let chunk = errors.availableData
        if chunk.isEmpty { break }
        seen.append(chunk)
      }
      process.interrupt()
      let rest = errors.readDataToEndOfFile()
      let status = process.wait()
      let text = String(decoding: seen + rest, as: UTF8.self)
      #expect(status == 130, "\(text)")
      #expect(text.contains(#""status":"cancelled""#))
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
  }
}
