import FolioCommands
import FolioTestSupport
import Foundation
import Testing

/// `folio pack --update` (issue 33 §3) on the command line: it replaces OUT without
/// --force, says how many entries it reused, refuses tar and a lone --checksum.
@Suite struct PackUpdateCommandTests {
  private func makePackage(in folder: URL) throws {
    let note = folder.appendingPathComponent("Note")
    try FileManager.default.createDirectory(at: note, withIntermediateDirectories: true)
    for name in ["a.txt", "b.txt", "c.txt"] {
      try Data(String(repeating: name, count: 500).utf8).write(
        to: note.appendingPathComponent(name))
    }
  }

  @Test func updateReplacesOutReusingUnchangedEntries() async throws {
    try await withTemporaryDirectory("cli-pack-update") { folder in
      try makePackage(in: folder)
      let (first, firstOutput, firstErrors) = await runFolio(
        ["pack", "Note", "-o", "Note.zip", "--update", "--reproducible"], in: folder)
      #expect(first == 0, "\(firstErrors)")
      #expect(firstOutput.contains("0 reused"), "no OUT yet: \(firstOutput)")
      try Data("changed".utf8).write(to: folder.appendingPathComponent("Note/b.txt"))
      let (status, output, errors) = await runFolio(
        ["pack", "Note", "-o", "Note.zip", "--update", "--reproducible"], in: folder)
      #expect(status == 0, "\(errors)")
      #expect(output.contains("3 files") && output.contains("2 reused"), "\(output)")
      let (fresh, _, _) = await runFolio(
        ["pack", "Note", "-o", "Fresh.zip", "--reproducible"], in: folder)
      #expect(fresh == 0)
      let same = try runProcess("cmp", ["Note.zip", "Fresh.zip"], in: folder)
      #expect(same.status == 0, "\(same.outputText)")
      let (verified, _, verifyErrors) = await runFolio(
        ["verify", "Note.zip", "--against", "Note"], in: folder)
      #expect(verified == 0, "\(verifyErrors)")
    }
  }

  @Test(arguments: [
    (["pack", "Note", "-o", "Note.tar", "--update"], "--update reuses zip entries only"),
    (["pack", "Note", "-o", "Note.zip", "--checksum"], "--checksum applies to --update only"),
  ])
  func misuseIsAUsageError(_ arguments: [String], message: String) async throws {
    try await withTemporaryDirectory("cli-pack-update-usage") { folder in
      try makePackage(in: folder)
      let (status, _, errors) = await runFolio(arguments, in: folder)
      #expect(status == 64)
      #expect(errors.contains(message), "\(errors)")
    }
  }
}
