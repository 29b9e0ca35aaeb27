@testable import FolioCommands

/// A `folio …` command line shown to readers (in the README, or in the man page's
/// examples), checked against the declarations.
struct ShownCommandLine {
  /// The line as shown.
  let text: String

  /// The `--options` the line shows that the command it names lacks: each `folio WORD …`
  /// names a command path as far as its words reach, and its options must exist there.
  func unknownOptions(in tree: CommandTree) -> [String] {
    let words = text.split(separator: " ").map(String.init)
    var node = tree.nodes[0]
    for word in words.dropFirst() {
      guard let next = tree.nodes.first(where: { $0.path == node.path + [word] }) else { break }
      node = next
    }
    let known = Set(
      (node.configuration.options + CommandTree.builtInOptions(isRoot: node.path.count == 1))
        .flatMap(\.longNames))
    var unknown: [String] = []
    for word in words where word.hasPrefix("--") || word.hasPrefix("[--") {
      let name = word.drop { $0 == "[" || $0 == "-" }.prefix { $0.isLetter || $0 == "-" }
      guard !name.isEmpty, !name.hasSuffix("-") else { continue }
      if !known.contains(String(name)) { unknown.append("--\(name) (\(node.name))") }
    }
    return unknown
  }
}
