import Archives
import FolioTestSupport
import Foundation
import Testing

/// The built `folio` binary, run as a user would.
@Suite struct ExpandEndToEndTests {
  @Test func interruptWhileWaitingForTheLockExits130AndLeavesNothing() async throws {
    try await withTemporaryDirectory("e2e-interrupt") { folder in
      let note = folder.appendingPathComponent("Note")
      try FileManager.default.createDirectory(at: note, withIntermediateDirectories: true)
      try Data("a".utf8).write(to: note.appendingPathComponent("a.txt"))
      let made = try runProcess("bsdtar", ["-czf", "Note.tgz", "Note"], in: folder)
      #expect(made.status == 0)
      let destination = folder.appendingPathComponent("Out")
      let holder = try await PackageLock.acquire(
        .shared, on: destination, options: LockOptions(timeout: .zero))

      let process = try ChildProcess(
        try FolioBinary.requireBuilt().path,
        ["expand", "Note.tgz", "-o", "Out", "--lock-timeout", "120"],
        in: folder, standardError: .pipe)
      let errors = try #require(process.standardErrorPipe)
      // Wait for the announcement, then interrupt.
      var seen = Data()
      while !String(decoding: seen, as: UTF8.self).contains("waiting for exclusive lock") {
        let chunk = errors.availableData
        if chunk.isEmpty { break }
        seen.append(chunk)
      }
      process.interrupt()
      let status = process.wait()
      seen.append(errors.readDataToEndOfFile())
      holder.release()
      #expect(
        String(decoding: seen, as: UTF8.self).contains(
          "waiting for exclusive lock on '\(destination.path)'"))
      #expect(status == 130, "standard error: \(String(decoding: seen, as: UTF8.self))")
      #expect(!FileManager.default.fileExists(atPath: destination.path))
      let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      #expect(left == ["Note", "Note.tgz"])
    }
  }

  @Test func hostileArchiveFailsWithExitCode1() async throws {
    try await withTemporaryDirectory("e2e-hostile") { folder in
      let made = try runProcess(
        "python3",
        [
          "-c",
          "import zipfile; z=zipfile.ZipFile('evil.zip','w'); z.writestr('/etc/evil','x'); z.close()",
        ],
        in: folder)
      #expect(made.status == 0)
      let result = try FolioBinary.run(["expand", "evil.zip"], in: folder)
      #expect(result.status == 1)
      #expect(result.errorText.contains("entry '/etc/evil' has an absolute name"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["evil.zip"])
    }
  }
}
