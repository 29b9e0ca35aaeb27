import FolioTestSupport
import Foundation
import Testing

@testable import FolioCommands

/// The figures the man page states and the command lines the README shows agree with the
/// program.
@Suite struct DocumentationFiguresTests {
  /// The README.
  private var readme: String {
    get throws {
      try String(
        contentsOf: ProjectPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
    }
  }

  private func run(_ words: [String]) async -> (Int32, String) {
    let out = OutputSink.buffer()
    let context = CommandContext(
      standardOutput: out, standardError: .buffer(),
      environment: [
        // No user types and no desktop database: the man page counts the compiled-in types.
        "HOME": "/nonexistent", "XDG_DATA_DIRS": "/nonexistent", "XDG_DATA_HOME": "/nonexistent",
      ],
      currentDirectory: "/")
    let status = await FolioMain.run(words, context: context)
    return (status, out.text)
  }

  @Test func systemTypeCountMatchesTypesList() async throws {
    let (status, listing) = await run(["types", "list"])
    #expect(status == 0)
    let count = listing.split(separator: "\n").count
    // The man page says it, from the reference beside ManPage.
    let text = ManPage(tree: CommandTree(root: FolioCommand.self), version: "").text
    let range = try #require(
      text.range(of: #"compiled in \(([0-9,]+) of them"#, options: .regularExpression),
      "the man page does not say how many system types are compiled in")
    let figure = text[range].filter(\.isNumber)
    #expect(
      Int(figure) == count,
      "the man page says \(figure) system types; 'folio types list' prints \(count)")
  }

  @Test func everySubcommandAndOptionTheReadmeShowsExists() async throws {
    let text = try readme
    let tree = CommandTree(root: FolioCommand.self)
    for line in text.split(separator: "\n") where line.hasPrefix("folio ") {
      let unknown = ShownCommandLine(text: String(line)).unknownOptions(in: tree)
      #expect(unknown.isEmpty, "README: '\(line)' shows \(unknown), which do not exist")
    }
  }
}
