import FolioCommands
import FolioTestSupport
import Foundation
import Testing

/// `folio verify` (issue 33 §2): exit codes, the differences on standard output, JSON, and
/// standard input.
@Suite struct VerifyCommandTests {
  /// Makes `Note/` with two files and packs it with `folio pack` into `Note.FORMAT`.
  private func makeArchive(in folder: URL, format: String) async throws {
    let note = folder.appendingPathComponent("Note")
    try FileManager.default.createDirectory(
      at: note.appendingPathComponent("sub"), withIntermediateDirectories: true)
    try Data("hello".utf8).write(to: note.appendingPathComponent("a.txt"))
    try Data("world".utf8).write(to: note.appendingPathComponent("sub/b.txt"))
    let (status, _, errors) = await runFolio(
      ["pack", "Note", "-o", "Note." + format, "--quiet"], in: folder)
    #expect(status == 0, "\(errors)")
  }

  @Test(arguments: ["zip", "tar.gz"])
  func anIntactArchiveExitsZeroAndPrintsNothingOnStandardOutput(_ format: String) async throws {
    try await withTemporaryDirectory("cli-verify") { folder in
      try await makeArchive(in: folder, format: format)
      let (status, output, errors) = await runFolio(["verify", "Note." + format], in: folder)
      #expect(status == 0, "\(errors)")
      #expect(output == "")
      #expect(errors.contains("intact (2 files"), "\(errors)")
      let (againstStatus, againstOutput, againstErrors) = await runFolio(
        ["verify", "Note." + format, "--against", "Note"], in: folder)
      #expect(againstStatus == 0, "\(againstErrors)")
      #expect(againstOutput == "")
    }
  }

  @Test func aDamagedArchiveExitsOneNamingTheEntry() async throws {
    try await withTemporaryDirectory("cli-verify-bad") { folder in
      let archive = try makeHostileArchiveForCommands("zip-bad-crc", in: folder)
      let (status, output, errors) = await runFolio(
        ["verify", archive.lastPathComponent], in: folder)
      #expect(status == 1)
      #expect(output == "")
      #expect(errors.contains("CRC-32") && errors.contains("[corrupt-archive]"), "\(errors)")
    }
  }

  @Test func differencesArePrintedOnePerLineAndExitOne() async throws {
    try await withTemporaryDirectory("cli-verify-diff") { folder in
      try await makeArchive(in: folder, format: "zip")
      let note = folder.appendingPathComponent("Note")
      let file = note.appendingPathComponent("a.txt")
      let time = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]
      try Data("HELLO".utf8).write(to: file)
      // The same time as packed: only the bytes differ, however long the pack took.
      try FileManager.default.setAttributes(
        [.modificationDate: time as Any], ofItemAtPath: file.path)
      try FileManager.default.removeItem(at: note.appendingPathComponent("sub/b.txt"))
      let (status, output, errors) = await runFolio(
        ["verify", "Note.zip", "--against", "Note"], in: folder)
      #expect(status == 1)
      let lines = output.split(separator: "\n")
      #expect(lines.count == 2, "\(output)")
      #expect(lines.first?.hasPrefix("a.txt: contents differ (archive CRC-32 ") == true)
      #expect(lines.last == "sub/b.txt: only in the archive (file, 5 bytes)")
      #expect(errors.contains("2 differences"), "\(errors)")
    }
  }

  @Test func jsonHoldsTheVerdictAndTheDifferences() async throws {
    try await withTemporaryDirectory("cli-verify-json") { folder in
      try await makeArchive(in: folder, format: "tar.gz")
      try Data("new".utf8).write(to: folder.appendingPathComponent("Note/c.txt"))
      let (status, output, _) = await runFolio(
        ["verify", "Note.tar.gz", "--against", "Note", "--format", "json"], in: folder)
      #expect(status == 1)
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
      #expect(object["intact"] as? Bool == true)
      #expect(object["matches"] as? Bool == false)
      let differences = try #require(object["differences"] as? [[String: Any]])
      #expect(differences.count == 1)
      #expect(differences.first?["path"] as? String == "c.txt")
      #expect(differences.first?["difference"] as? String == "missing-from-archive")

      let damaged = try makeHostileArchiveForCommands("tar-gz-bad-trailer", in: folder)
      let (badStatus, badOutput, _) = await runFolio(
        ["verify", damaged.lastPathComponent, "--format", "json"], in: folder)
      #expect(badStatus == 1)
      let bad = try #require(
        try JSONSerialization.jsonObject(with: Data(badOutput.utf8)) as? [String: Any])
      #expect(bad["intact"] as? Bool == false)
      #expect((bad["error"] as? [String: Any])?["code"] as? String == "corrupt-archive")
    }
  }

  /// From a pipe, as `gzip -t < file` does: a tar streams, a zip is spooled first.
  @Test(arguments: ["zip", "tar.gz"])
  func standardInputIsVerifiedToo(_ format: String) async throws {
    try await withTemporaryDirectory("cli-verify-stdin") { folder in
      try await makeArchive(in: folder, format: format)
      let bytes = try Data(contentsOf: folder.appendingPathComponent("Note." + format))
      let good = try FolioBinary.run(["verify", "-"], in: folder, input: bytes)
      #expect(good.status == 0, "\(good.errorText)")
      let cut = try FolioBinary.run(
        ["verify", "-"], in: folder, input: bytes.prefix(bytes.count - 9))
      #expect(cut.status == 1)
      #expect(cut.errorText.contains("error:"), "\(cut.errorText)")
    }
  }
}

/// Builds one archive of the packaging tests' `hostile_archives.py` in a folder.
private func makeHostileArchiveForCommands(_ name: String, in folder: URL) throws -> URL {
  let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("PackagingTests/Fixtures/hostile_archives.py")
  let archive = folder.appendingPathComponent(name)
  let result = try runProcess("python3", [script.path, name, archive.path])
  #expect(result.status == 0, "\(result.errorText)")
  return archive
}
