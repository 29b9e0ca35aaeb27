import FolioCommands
import FolioTestSupport
import Foundation
import Testing

/// One rule for every command that writes an output: an existing one is replaced only with
/// `--force` (or updated with `--update` where there is something to keep), refused
/// otherwise with the library's `output-exists` and the command's hint, and left as it was.
@Suite struct ReplaceOptionsTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var command: String
    var arguments: [String]
    /// The output, relative to the folder.
    var output: String
    /// What the hint says beyond `--force`.
    var hint = "use --force to replace it"

    var testDescription: String { command }

    /// The existing output's file that holds `old` (inside it, for a folder).
    var kept: String { command == "expand" ? output + "/old.txt" : output }
  }

  static let cases = [
    Case(
      command: "pack", arguments: ["pack", "P.examplenotebook", "-o", "P.zip", "-q"],
      output: "P.zip"),
    Case(
      command: "expand", arguments: ["expand", "In.zip", "-o", "Out", "-q"], output: "Out",
      hint: "use --force to replace it, or --update to update it"),
    Case(
      command: "export",
      arguments: ["export", "--to", "public.utf16-plain-text", "a.txt", "-o", "b.txt", "-q"],
      output: "b.txt"),
    Case(
      command: "plist convert",
      arguments: ["plist", "convert", "--to", "json", "-o", "b.json", "a.plist"],
      output: "b.json"),
  ]

  /// The inputs every case reads, and the existing output of `testCase`.
  private func prepare(_ testCase: Case, in folder: URL) async throws {
    let package = folder.appendingPathComponent("P.examplenotebook")
    try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
    try Data("a".utf8).write(to: package.appendingPathComponent("a.txt"))
    try Data("hello\n".utf8).write(to: folder.appendingPathComponent("a.txt"))
    try Data("<plist version=\"1.0\"><dict/></plist>".utf8).write(
      to: folder.appendingPathComponent("a.plist"))
    let packed = await runFolio(["pack", "P.examplenotebook", "-o", "In.zip", "-q"], in: folder)
    #expect(packed.0 == 0, "\(packed.2)")
    if testCase.command == "expand" {
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("Out"), withIntermediateDirectories: true)
    }
    try Data("old".utf8).write(to: folder.appendingPathComponent(testCase.kept))
  }

  @Test(arguments: cases)
  func anExistingOutputIsRefusedWithTheLibrarysCodeAndReplacedWithForce(_ testCase: Case)
    async throws
  {
    try await withTemporaryDirectory("replace-options") { folder in
      try await prepare(testCase, in: folder)
      let kept = folder.appendingPathComponent(testCase.kept)
      let (status, output, errors) = await runFolio(testCase.arguments, in: folder)
      #expect(status == 1)
      #expect(output.isEmpty)
      #expect(
        errors
          == "error: '\(folder.appendingPathComponent(testCase.output).path)' already exists; \(testCase.hint) [output-exists]\n"
      )
      #expect(try Data(contentsOf: kept) == Data("old".utf8))
      let (forced, _, forcedErrors) = await runFolio(testCase.arguments + ["--force"], in: folder)
      #expect(forced == 0, "\(forcedErrors)")
      #expect((try? Data(contentsOf: kept)) != Data("old".utf8))
    }
  }

  @Test(arguments: ["pack", "expand"])
  func forceAndUpdateTogetherAreTheSameUsageErrorForEveryCommand(_ command: String) async throws {
    try await withTemporaryDirectory("replace-options") { folder in
      let words = command == "pack" ? ["pack", "P"] : ["expand", "x.zip"]
      let (status, _, errors) = await runFolio(words + ["--force", "--update"], in: folder)
      #expect(status == 64)
      #expect(errors.hasPrefix("error: --force and --update cannot be used together\n"))
    }
  }
}
