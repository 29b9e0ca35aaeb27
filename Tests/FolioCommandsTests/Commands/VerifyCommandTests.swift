import FolioTestSupport
import Foundation
import Testing

/// `folio verify` (issue 33 §2): a good archive passes, a damaged one fails naming the entry
/// with the code, as `unzip -t` fails it.
@Suite struct VerifyCommandTests {
  @Test func aGoodZipPassesAndAFlippedByteFailsNamingTheEntry() async throws {
    try await withTemporaryDirectory("cli-verify") { folder in
      let script = """
        import zipfile
        with zipfile.ZipFile('good.zip', 'w', zipfile.ZIP_STORED) as z:
            z.writestr('doc/page.txt', b'hello world')
        data = bytearray(open('good.zip', 'rb').read())
        data[data.find(b'hello')] = ord('j')
        open('bad.zip', 'wb').write(data)
        """
      let made = try runProcess("python3", ["-c", script], in: folder)
      #expect(made.status == 0, "\(made.errorText)")
      let (good, output, errors) = await runFolio(["verify", "good.zip"], in: folder)
      #expect(good == 0, "\(errors)")
      #expect(output.hasPrefix("verified 1 file (11 B) in "), "\(output)")
      let (bad, _, badErrors) = await runFolio(["verify", "bad.zip"], in: folder)
      #expect(bad == 1)
      #expect(badErrors.contains("entry 'doc/page.txt' does not match its CRC-32"), "\(badErrors)")
      #expect(badErrors.hasSuffix("[corrupt-archive]\n"), "\(badErrors)")
      if programExists("unzip") {
        let peerGood = try runProcess("unzip", ["-tq", "good.zip"], in: folder)
        let peerBad = try runProcess("unzip", ["-tq", "bad.zip"], in: folder)
        #expect(peerGood.status == 0 && peerBad.status != 0)
      }
      let (quiet, quietOutput, _) = await runFolio(["verify", "-q", "good.zip"], in: folder)
      #expect(quiet == 0 && quietOutput.isEmpty)
    }
  }

  @Test func againstAFolderPrintsEachDifferenceAndFails() async throws {
    try await withTemporaryDirectory("cli-verify-against") { folder in
      let package = folder.appendingPathComponent("Pkg")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
      try Data("one".utf8).write(to: package.appendingPathComponent("a.txt"))
      let (packed, _, packErrors) = await runFolio(["pack", "Pkg", "-o", "Pkg.tar"], in: folder)
      #expect(packed == 0, "\(packErrors)")
      let (same, sameOutput, _) = await runFolio(
        ["verify", "Pkg.tar", "--against", "Pkg"], in: folder)
      #expect(same == 0)
      #expect(sameOutput.hasSuffix("Pkg.tar matches \(package.path)\n"), "\(sameOutput)")
      try Data().write(to: package.appendingPathComponent("b.txt"))
      let (status, output, _) = await runFolio(
        ["verify", "Pkg.tar", "--against", "Pkg"], in: folder)
      #expect(status == 1)
      #expect(output == "b.txt: in the folder, not in the archive\n")
    }
  }

  /// A Linux tree may hold `Index.html` beside `index.html` (Debian's libffi and valgrind
  /// documentation does): `verify` applies `expand`'s collision rule and limits, and takes
  /// the same options to relax them.
  @Test func theExpansionsRulesAreRelaxedWithExpandsOptions() async throws {
    try await withTemporaryDirectory("cli-verify-rules") { folder in
      let package = folder.appendingPathComponent("Pkg")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
      try Data("upper".utf8).write(to: package.appendingPathComponent("Index.html"))
      try Data("lower".utf8).write(to: package.appendingPathComponent("index.html"))
      let (packed, _, _) = await runFolio(["pack", "Pkg", "-o", "Pkg.zip", "-q"], in: folder)
      #expect(packed == 0)
      for arguments in [["verify", "Pkg.zip"], ["verify", "Pkg.zip", "--against", "Pkg"]] {
        let (refused, _, errors) = await runFolio(arguments, in: folder)
        #expect(refused == 1, "\(arguments)")
        #expect(errors.contains("[name-collision]"), "\(errors)")
        #expect(errors.contains("use --allow-collisions to accept both names"), "\(errors)")
        let (allowed, output, allowedErrors) = await runFolio(
          arguments + ["--allow-collisions"], in: folder)
        #expect(allowed == 0, "\(arguments): \(allowedErrors)")
        #expect(output.contains(arguments.count == 2 ? "verified 2 files" : "matches"), "\(output)")
      }
      let (limited, _, limitErrors) = await runFolio(
        ["verify", "Pkg.zip", "--allow-collisions", "--max-entries", "2"], in: folder)
      #expect(limited == 1)
      #expect(limitErrors.contains("[too-many-entries]"), "\(limitErrors)")
      #expect(limitErrors.contains("raise the limit with --max-entries"), "\(limitErrors)")
      let (raised, _, raisedErrors) = await runFolio(
        ["verify", "Pkg.zip", "--allow-collisions", "--max-entries", "3"], in: folder)
      #expect(raised == 0, "\(raisedErrors)")
    }
  }
}
