import FolioTestSupport
import Foundation
import Testing

/// `folio list` on a damaged tar (issue 30 §6): a tar cut in the middle of an entry's
/// data is an error naming the entry, as bsdtar -t and Python's tarfile say, from a file
/// and from a pipe.
@Suite struct ListDamagedTarTests {
  /// Writes `whole.tar` (a.txt 5000 bytes, b.bin 20000 bytes) and `cut.tar`, its first
  /// 12000 bytes (inside b.bin's data), with Python's tarfile or bsdtar.
  private func makeTars(in folder: URL, with writer: String) throws {
    if writer == "python3" {
      let script = """
        import tarfile, io
        with tarfile.open("whole.tar", "w", format=tarfile.USTAR_FORMAT) as tar:
            for name, size in [("a.txt", 5000), ("b.bin", 20000)]:
                info = tarfile.TarInfo(name)
                info.size = size
                tar.addfile(info, io.BytesIO(b"x" * size))
        """
      #expect(try runProcess("python3", ["-c", script], in: folder).status == 0)
    } else {
      let source = folder.appendingPathComponent("Source")
      try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
      try Data(repeating: 0x78, count: 5000).write(to: source.appendingPathComponent("a.txt"))
      try Data(repeating: 0x79, count: 20000).write(to: source.appendingPathComponent("b.bin"))
      let made = try runProcess(
        "bsdtar", ["--format", "ustar", "-cf", "whole.tar", "-C", "Source", "a.txt", "b.bin"],
        in: folder)
      #expect(made.status == 0)
    }
    let whole = try Data(contentsOf: folder.appendingPathComponent("whole.tar"))
    try whole.prefix(12000).write(to: folder.appendingPathComponent("cut.tar"))
  }

  @Test(arguments: ["python3", "bsdtar"])
  func aTarCutInAnEntrysDataFailsNamingTheEntry(writer: String) async throws {
    try await withTemporaryDirectory("list-cut") { folder in
      try makeTars(in: folder, with: writer)
      // The peers agree the cut tar is damaged and the whole one is not.
      #expect(try runProcess("bsdtar", ["-tf", "cut.tar"], in: folder).status != 0)
      #expect(try runProcess("bsdtar", ["-tf", "whole.tar"], in: folder).status == 0)
      let python = "import tarfile, sys; tarfile.open(sys.argv[1]).getnames()"
      #expect(try runProcess("python3", ["-c", python, "cut.tar"], in: folder).status != 0)

      let (whole, _, wholeErrors) = await runFolio(["list", "whole.tar"], in: folder)
      #expect(whole == 0, "\(wholeErrors)")
      let (status, _, errors) = await runFolio(["list", "cut.tar"], in: folder)
      #expect(status == 1)
      #expect(errors.contains("'b.bin'"), "\(errors)")
      #expect(errors.contains("[corrupt-archive]"), "\(errors)")
    }
  }

  @Test(arguments: ["python3", "bsdtar"])
  func aCutTarOnStandardInputFailsFromAFileAndFromAPipe(writer: String) async throws {
    try await withTemporaryDirectory("list-cut-stdin") { folder in
      try makeTars(in: folder, with: writer)
      let folio = try FolioBinary.requireBuilt().path
      for name in ["whole.tar", "cut.tar"] {
        let redirected = try FolioBinary.run(
          ["list", "-"], in: folder,
          input: try Data(contentsOf: folder.appendingPathComponent(name)))
        // `cat` makes standard input a pipe, which cannot be measured or skipped.
        let piped = try runProcess(
          "sh", ["-c", "cat \"$1\" | \"$0\" list -", folio, name], in: folder)
        for result in [redirected, piped] {
          if name == "whole.tar" {
            #expect(result.status == 0, "\(result.errorText)")
            #expect(result.outputText.contains("b.bin"))
          } else {
            #expect(result.status == 1)
            #expect(result.errorText.contains("'b.bin'"), "\(result.errorText)")
          }
        }
      }
    }
  }
}
