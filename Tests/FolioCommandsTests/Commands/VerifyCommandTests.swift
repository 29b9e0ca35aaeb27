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
}
