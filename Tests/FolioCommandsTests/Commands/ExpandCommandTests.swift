import FolioCommands
import FolioTestSupport
import Foundation
import Testing

/// Runs `folio` in-process in `folder`, returning the exit code and both streams.
func runFolio(_ arguments: [String], in folder: URL) async -> (Int32, String, String) {
  let context = CommandContext(
    standardOutput: .buffer(), standardError: .buffer(), currentDirectory: folder.path)
  let status = await FolioMain.run(arguments, context: context)
  return (status, context.standardOutput.text, context.standardError.text)
}

@Suite struct ExpandCommandTests {
  /// Makes `Note/` with a file and an empty folder, and `Note.tar.gz` from it.
  private func makeArchive(in folder: URL) throws -> URL {
    let note = folder.appendingPathComponent("Note")
    try FileManager.default.createDirectory(
      at: note.appendingPathComponent("empty"), withIntermediateDirectories: true)
    try Data("hello".utf8).write(to: note.appendingPathComponent("a.txt"))
    let archive = folder.appendingPathComponent("Note.examplenotebook.tar.gz")
    let made = try runProcess("bsdtar", ["-czf", archive.path, "Note"], in: folder)
    #expect(made.status == 0)
    return archive
  }

  @Test func expandsToTheArchiveNameByDefault() async throws {
    try await withTemporaryDirectory("cli-expand") { folder in
      _ = try makeArchive(in: folder)
      let (status, output, errors) = await runFolio(
        ["expand", "Note.examplenotebook.tar.gz"], in: folder)
      #expect(status == 0, "\(errors)")
      #expect(output.hasPrefix("expanded 1 file ("))
      let restored = folder.appendingPathComponent("Note.examplenotebook")
      #expect(FileManager.default.fileExists(atPath: restored.appendingPathComponent("a.txt").path))
      #expect(FileManager.default.fileExists(atPath: restored.appendingPathComponent("empty").path))
    }
  }

  @Test func existingDestinationFailsThenForceReplacesIt() async throws {
    try await withTemporaryDirectory("cli-force") { folder in
      _ = try makeArchive(in: folder)
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("Out"), withIntermediateDirectories: false)
      let (status, _, errors) = await runFolio(
        ["expand", "Note.examplenotebook.tar.gz", "-o", "Out"], in: folder)
      #expect(status == 1)
      #expect(errors.contains("already exists"))
      let (forced, forceOutput, forceErrors) = await runFolio(
        ["expand", "Note.examplenotebook.tar.gz", "-o", "Out", "--force", "-q"], in: folder)
      #expect(forced == 0, "\(forceErrors)")
      #expect(forceErrors.isEmpty)
      #expect(forceOutput.isEmpty)
      #expect(
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("Out/a.txt").path))
    }
  }

  @Test func forceAndUpdateTogetherAreAUsageError() async throws {
    try await withTemporaryDirectory("cli-usage") { folder in
      let (status, _, errors) = await runFolio(
        ["expand", "x.zip", "--force", "--update"], in: folder)
      #expect(status == 64)
      #expect(errors.contains("--force and --update"))
      let (badSize, _, _) = await runFolio(["expand", "x.zip", "--max-bytes", "lots"], in: folder)
      #expect(badSize == 64)
      let (badTimeout, _, _) = await runFolio(
        ["expand", "x.zip", "--lock-timeout", "-1"], in: folder)
      #expect(badTimeout == 64)
    }
  }

  @Test func refusalNamesTheEntryAndTheRule() async throws {
    try await withTemporaryDirectory("cli-refusal") { folder in
      let archive = folder.appendingPathComponent("evil.zip")
      let made = try runProcess(
        "python3",
        [
          "-c",
          "import zipfile; z=zipfile.ZipFile('\(archive.path)','w'); z.writestr('../evil.txt','x'); z.close()",
        ])
      #expect(made.status == 0)
      let (status, _, errors) = await runFolio(["expand", "evil.zip"], in: folder)
      #expect(status == 1)
      #expect(errors.contains("'../evil.txt'"))
      #expect(errors.contains("'..' component [parent-component]"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["evil.zip"])
    }
  }

  @Test func maxBytesStopsALargeExpansion() async throws {
    try await withTemporaryDirectory("cli-max-bytes") { folder in
      _ = try makeArchive(in: folder)
      let (status, _, errors) = await runFolio(
        ["expand", "Note.examplenotebook.tar.gz", "--max-bytes", "3"], in: folder)
      #expect(status == 1)
      #expect(errors.contains("past the limit of 3 bytes"))
    }
  }

  @Test func jsonProgressWritesOneEventPerLine() async throws {
    try await withTemporaryDirectory("cli-progress") { folder in
      _ = try makeArchive(in: folder)
      let (status, output, errors) = await runFolio(
        ["expand", "Note.examplenotebook.tar.gz", "--progress", "json", "-q"], in: folder)
      #expect(status == 0)
      #expect(output.isEmpty)
      let lines = errors.split(separator: "\n")
      #expect(lines.contains { $0.contains(#""event":"file-started","path":"Note/a.txt""#) })
      #expect(lines.last?.contains(#""status":"ok""#) == true)
      for line in lines {
        #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
      }
    }
  }
}

@Suite struct ListCommandTests {
  @Test func listsLikeBsdtar() async throws {
    try await withTemporaryDirectory("cli-list") { folder in
      let note = folder.appendingPathComponent("Note")
      try FileManager.default.createDirectory(at: note, withIntermediateDirectories: true)
      try Data("hello".utf8).write(to: note.appendingPathComponent("a.txt"))
      symlink("a.txt", note.appendingPathComponent("link").path)
      let made = try runProcess("bsdtar", ["-cf", "Note.tar", "Note"], in: folder)
      #expect(made.status == 0)
      let (status, output, errors) = await runFolio(["list", "Note.tar"], in: folder)
      #expect(status == 0, "\(errors)")
      let lines = output.split(separator: "\n").map(String.init)
      let peer = try runProcess("bsdtar", ["-tf", "Note.tar"], in: folder)
      #expect(lines.count == peer.outputText.split(separator: "\n").count)
      #expect(
        lines.contains {
          $0.hasPrefix("-rw-r--r--") && $0.contains(" 5 ") && $0.hasSuffix(" Note/a.txt")
        })
      #expect(lines.contains { $0.hasPrefix("lrwx") && $0.hasSuffix("Note/link -> a.txt") })
      let (_, names, _) = await runFolio(["list", "--names", "Note.tar"], in: folder)
      #expect(names == peer.outputText)
    }
  }

  @Test func damagedArchiveIsAnError() async throws {
    try await withTemporaryDirectory("cli-list-damaged") { folder in
      try Data().write(to: folder.appendingPathComponent("empty.zip"))
      let (status, _, errors) = await runFolio(["list", "empty.zip"], in: folder)
      #expect(status == 1)
      #expect(errors.contains("empty"))
    }
  }

  /// A zip made on Windows: `\\` read as `/`, and one warning on standard error (or one
  /// JSON warning event) naming it; `--quiet` silences it.
  @Test func windowsSeparatorsAreReadWithAWarning() async throws {
    try await withTemporaryDirectory("cli-expand-windows") { folder in
      let script = """
        import zipfile
        with zipfile.ZipFile('win.zip', 'w') as z:
            for name in ('arc\\\\a.txt', 'arc\\\\b.txt'):
                info = zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0))
                info.create_system = 0
                z.writestr(info, b'x')
        """
      let made = try runProcess("python3", ["-c", script], in: folder)
      try #require(made.status == 0, "\(made.errorText)")
      let (status, _, errors) = await runFolio(["expand", "win.zip", "-o", "plain"], in: folder)
      #expect(status == 0, "\(errors)")
      #expect(errors.hasPrefix("folio: warning: '"), "\(errors)")
      #expect(
        errors.contains(
          #"win.zip': 2 entries written on Windows use '\' as the folder separator, read as '/' ('arc/a.txt') [windows-separators]"#
        ), "\(errors)")
      #expect(
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("plain/b.txt").path))
      let (jsonStatus, _, events) = await runFolio(
        ["expand", "win.zip", "-o", "json", "--progress", "json"], in: folder)
      #expect(jsonStatus == 0, "\(events)")
      let warnings = events.split(separator: "\n").filter { $0.contains(#""warning""#) }
      #expect(warnings.count == 1, "\(events)")
      #expect(warnings.first?.contains(#""code":"windows-separators""#) == true, "\(events)")
      let (quietStatus, _, quietErrors) = await runFolio(
        ["expand", "win.zip", "-o", "quiet", "-q"], in: folder)
      #expect(quietStatus == 0)
      #expect(quietErrors.isEmpty, "\(quietErrors)")
    }
  }

  /// `--name-encoding` on list and expand: names decoded, an unknown encoding a usage
  /// error, and a name it cannot read refused with a hint naming the option.
  @Test func nameEncodingDecodesListedAndExpandedNames() async throws {
    try await withTemporaryDirectory("cli-name-encoding") { folder in
      let script = """
        import zipfile
        with zipfile.ZipFile('ru.zip', 'w') as z:
            z.writestr(zipfile.ZipInfo('XXXXXX.txt', (2020, 1, 1, 0, 0, 0)), b'x')
        data = open('ru.zip', 'rb').read()
        open('ru.zip', 'wb').write(data.replace(b'XXXXXX.txt', 'Привет.txt'.encode('cp866')))
        """
      let made = try runProcess("python3", ["-c", script], in: folder)
      try #require(made.status == 0, "\(made.errorText)")
      let (listStatus, listed, _) = await runFolio(
        ["list", "--names", "--name-encoding", "cp866", "ru.zip"], in: folder)
      #expect(listStatus == 0)
      #expect(listed == "Привет.txt\n")
      let (autoStatus, autoListed, _) = await runFolio(
        ["list", "--names", "--name-encoding", "auto", "ru.zip"], in: folder)
      #expect(autoStatus == 0)
      #expect(autoListed == "Привет.txt\n")
      let (status, _, errors) = await runFolio(
        ["expand", "--name-encoding", "auto", "ru.zip", "-o", "out"], in: folder)
      #expect(status == 0, "\(errors)")
      #expect(errors.contains("were read as CP866"), "\(errors)")
      #expect(
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/Привет.txt").path)
      )
      let (unknown, _, unknownErrors) = await runFolio(
        ["expand", "--name-encoding", "NO-SUCH", "ru.zip", "-o", "x"], in: folder)
      #expect(unknown == 64, "\(unknownErrors)")
      let (refused, _, refusal) = await runFolio(
        ["expand", "--name-encoding", "utf-8", "ru.zip", "-o", "y"], in: folder)
      #expect(refused == 1)
      #expect(refusal.contains("--name-encoding (auto"), "\(refusal)")
      #expect(refusal.contains("[invalid-name-encoding]"), "\(refusal)")
    }
  }
}
