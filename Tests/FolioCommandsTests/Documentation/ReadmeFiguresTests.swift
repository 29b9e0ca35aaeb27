import FolioTestSupport
import Foundation
import Testing

@testable import FolioCommands

/// The figures and command lines of the README and the guide (docs/GUIDE.md) agree with the
/// program.
@Suite struct ReadmeFiguresTests {
  /// The README and the guide, one after the other.
  private var readme: String {
    get throws {
      try ["README.md", "docs/GUIDE.md"].map {
        try String(contentsOf: ProjectPaths.root.appendingPathComponent($0), encoding: .utf8)
      }.joined(separator: "\n")
    }
  }

  private func run(_ words: [String]) async -> (Int32, String) {
    let out = OutputSink.buffer()
    let context = CommandContext(
      standardOutput: out, standardError: .buffer(),
      environment: [
        // No user types and no desktop database: the README counts the compiled-in types.
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
    let text = try readme
    guard
      let range = text.range(of: #"compiled in \(([0-9,]+) of them"#, options: .regularExpression)
    else {
      Issue.record("neither the README nor the guide says how many system types are compiled in")
      return
    }
    let figure = text[range].filter(\.isNumber)
    #expect(
      Int(figure) == count, "README says \(figure) system types; 'folio types list' prints \(count)"
    )
  }

  @Test func everySubcommandAndOptionTheReadmeShowsExists() async throws {
    let text = try readme
    let tree = CommandTree(root: FolioCommand.self)
    // Each `folio WORD …` in a code line names a real command path, and its `--options` exist.
    for line in text.split(separator: "\n") where line.hasPrefix("folio ") {
      let words = line.split(separator: " ").map(String.init)
      var node = tree.nodes[0]
      for word in words.dropFirst() {
        guard let next = tree.nodes.first(where: { $0.path == node.path + [word] }) else { break }
        node = next
      }
      let known = Set(
        (node.configuration.options + CommandTree.builtInOptions(isRoot: node.path.count == 1))
          .flatMap(\.longNames))
      for word in words where word.hasPrefix("--") || word.hasPrefix("[--") {
        let name = word.drop { $0 == "[" || $0 == "-" }.prefix { $0.isLetter || $0 == "-" }
        guard !name.isEmpty, !name.hasSuffix("-") else { continue }
        #expect(
          known.contains(String(name)),
          "README: '\(line)' shows --\(name), which \(node.name) lacks")
      }
    }
  }
}
