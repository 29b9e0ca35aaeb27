import FolioTestSupport
import Foundation
import Testing

@testable import FolioCommands

@Suite struct ManPageTests {
  private func generated() async -> String {
    let out = OutputSink.buffer()
    let context = CommandContext(
      standardOutput: out, standardError: .buffer(), currentDirectory: "/")
    #expect(await FolioMain.run(["help", "--man"], context: context) == 0)
    return out.text
  }

  /// `docs/folio.1` is what `folio help --man` prints; after changing an option or its
  /// help, regenerate it with `FOLIO_RECORD_MAN_PAGE=1 swift test --filter ManPageTests`.
  @Test func checkedInManPageMatchesTheDeclarations() async throws {
    let page = await generated()
    let file = ProjectPaths.root.appendingPathComponent("docs/folio.1")
    if ProcessInfo.processInfo.environment["FOLIO_RECORD_MAN_PAGE"] == "1" {
      try page.write(to: file, atomically: true, encoding: .utf8)
    }
    let checkedIn = try String(contentsOf: file, encoding: .utf8)
    #expect(
      checkedIn == page,
      "docs/folio.1 is stale: run FOLIO_RECORD_MAN_PAGE=1 swift test --filter ManPageTests")
  }

  @Test func everyCommandAndOptionIsInThePage() async {
    let page = await generated()
    for node in CommandTree(root: FolioCommand.self).nodes.dropFirst()
    where node.configuration.subcommands.isEmpty {
      #expect(page.contains(".SS \"\(node.name)\"\n"))
      for option in node.configuration.options {
        #expect(
          page.contains("\\fB\\-\\-\(option.long.replacingOccurrences(of: "-", with: "\\-"))\\fR"))
      }
    }
    #expect(page.contains(".B 130\n"))
  }

  @Test func everyReferenceBelongsToACommand() {
    let names = Set(CommandTree(root: FolioCommand.self).nodes.map(\.name))
    for key in ManPage.reference.keys {
      #expect(names.contains(key), "ManPage.reference has text for '\(key)', which is no command")
    }
  }

  @Test func everyExampleShowsCommandsAndOptionsThatExist() async {
    let page = await generated()
    let tree = CommandTree(root: FolioCommand.self)
    var inExample = false
    var examples = 0
    for line in page.split(separator: "\n") {
      if line == ".EX" || line == ".EE" {
        inExample = line == ".EX"
        continue
      }
      let text = line.replacingOccurrences(of: "\\-", with: "-")
      guard inExample, text.hasPrefix("folio ") else { continue }
      examples += 1
      let unknown = ShownCommandLine(text: text).unknownOptions(in: tree)
      #expect(unknown.isEmpty, "man page example '\(text)' shows \(unknown), which do not exist")
    }
    #expect(examples > 20)
  }

  // groff-base is in scripts/bootstrap.sh's list; without it there is nothing to render with.
  @Test(
    .enabled(
      if: programExists("groff"),
      "groff is not installed (scripts/bootstrap.sh installs groff-base)"))
  func groffRendersThePageWithoutWarnings() async throws {
    let folder = try makeTemporaryDirectory("completions")
    defer { removeTree(folder) }
    let file = folder.appendingPathComponent("folio.1")
    try await generated().write(to: file, atomically: true, encoding: .utf8)
    let result = try runProcess("groff", ["-man", "-ww", "-z", file.path])
    #expect(result.status == 0)
    #expect(result.errorText.isEmpty, "\(result.errorText)")
  }
}
