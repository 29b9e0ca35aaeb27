import FolioTestSupport
import Foundation
import Testing

/// Property-list reading takes memory bounded by the limits, not by the input.
///
/// Property-list inputs have a size limit (16 MiB by default, `--max-input-size` to raise it), checked before
/// reading a file, and standard input is read against the same limit.
@Suite struct PropertyListLimitTests {
  /// Peak memory for a refused input, in KiB: the process itself, and not the input.
  static let memoryBoundKiB = 64 << 10

  @Test(arguments: [
    ["plist", "lint", "-"], ["plist", "convert", "--to", "json", "-"], ["validate", "-"],
  ])
  func aHugeStreamIsRefusedWithoutReadingIt(_ command: [String]) throws {
    let folio = FolioBinary.url.path
    let line = ([folio] + command).map { "'\($0)'" }.joined(separator: " ")
    let start = ContinuousClock.now
    let result = try ChildProcess.run("/bin/sh", ["-c", "head -c 1G /dev/zero | \(line)"])
    #expect(result.status == 1, "\(command): \(result.errorText)")
    #expect(
      result.errorText.contains("standard input holds more than 16777216 bytes"),
      "\(result.errorText)")
    #expect(
      result.errorText.contains("raise the limit with --max-input-size"), "\(result.errorText)")
    #expect(result.peakMemoryKiB < Self.memoryBoundKiB, "\(command): \(result.peakMemoryKiB) KiB")
    // It stops reading at the limit: far less than reading 1 GiB would take.
    #expect(ContinuousClock.now - start < .seconds(60))
  }

  @Test(arguments: [["plist", "lint"], ["plist", "convert", "--to", "xml"], ["validate"]])
  func aHugeFileIsRefusedBeforeReading(_ command: [String]) async throws {
    try await withTemporaryDirectory("plist-limit") { folder in
      let huge = folder.appendingPathComponent("Huge.plist")
      // 4 GiB that take no disk: a sparse file.
      #expect(try runProcess("truncate", ["-s", "4G", huge.path]).status == 0)
      let before = try FileManager.default.attributesOfItem(atPath: huge.path)
      let result = try ChildProcess.run(FolioBinary.url.path, command + [huge.path])
      #expect(result.status == 1)
      #expect(
        result.errorText.contains("4294967296 bytes, more than the limit of 16777216"),
        "\(result.errorText)")
      // Every command's refusal names the option that lifts it, validate's diagnostic too.
      #expect(
        result.errorText.contains("raise the limit with --max-input-size"), "\(result.errorText)")
      #expect(result.peakMemoryKiB < Self.memoryBoundKiB, "\(command): \(result.peakMemoryKiB) KiB")
      let after = try FileManager.default.attributesOfItem(atPath: huge.path)
      #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
    }
  }

  @Test func theLimitCanBeRaised() async throws {
    try await withTemporaryDirectory("plist-limit-raise") { folder in
      let plist = folder.appendingPathComponent("Big.plist")
      // A real (if large) property list of 20 MB: refused by default, read when allowed.
      let entry = "<string>\(String(repeating: "x", count: 990))</string>\n"
      var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"
      text += String(repeating: entry, count: 20_000)
      text += "</array>\n</plist>\n"
      try Data(text.utf8).write(to: plist)
      let folio = FolioBinary.url.path
      let refused = try ChildProcess.run(folio, ["plist", "lint", plist.path])
      #expect(refused.status == 1)
      #expect(
        refused.errorText.contains("raise the limit with --max-input-size"), "\(refused.errorText)")
      let allowed = try ChildProcess.run(
        folio, ["plist", "lint", "--max-input-size", "32M", plist.path])
      #expect(allowed.status == 0, "\(allowed.errorText)")
      let piped = try ChildProcess.run(
        "/bin/sh", ["-c", "cat '\(plist.path)' | '\(folio)' plist lint --max-input-size 32M -"])
      #expect(piped.status == 0, "\(piped.errorText)")
    }
  }
}
