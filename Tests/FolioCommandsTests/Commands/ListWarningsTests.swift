import FolioTestSupport
import Foundation
import Testing

/// `folio list` says what it read as the peers read it, as `expand` does (issue 31 §4): an
/// archive accepted with a warning is listed with the same warning on standard error.
@Suite struct ListWarningsTests {
  @Test func aZipWithBytesAfterItsEndRecordIsListedWithTheWarning() async throws {
    try await withTemporaryDirectory("list-warnings") { folder in
      let script = """
        import zipfile
        with zipfile.ZipFile("padded.zip", "w") as z:
            z.writestr("a.txt", "hello")
        with open("padded.zip", "ab") as f:
            f.write(b"appended junk")
        """
      let made = try runProcess("python3", ["-c", script], in: folder)
      #expect(made.status == 0, "\(made.errorText)")
      let (status, output, errors) = await runFolio(["list", "--names", "padded.zip"], in: folder)
      #expect(status == 0, "\(errors)")
      #expect(output == "a.txt\n")
      #expect(errors.contains("warning:"), "\(errors)")
      #expect(errors.contains("[zip-trailing-data]"), "\(errors)")
      let expanded = await runFolio(["expand", "padded.zip", "-o", "Out"], in: folder)
      #expect(expanded.2.contains("[zip-trailing-data]"), "the same warning as expand gives")
    }
  }
}
