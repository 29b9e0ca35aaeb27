/// Every command of a tree with its path, for the generators that describe
/// the whole tool (completion scripts, the man page).
struct CommandTree {
  /// One command and the words that reach it.
  struct Node {
    /// The command words from the root (`["folio", "plist", "lint"]`).
    var path: [String]
    /// The command's declaration.
    var configuration: CommandConfiguration
    /// The words of its subcommands, in help order.
    var subcommandNames: [String] { configuration.subcommands.map { $0.configuration.name } }
    /// The path as one string (`folio plist lint`).
    var name: String { path.joined(separator: " ") }
  }

  /// Every command, depth first, the root first.
  let nodes: [Node]

  /// Walks a command tree.
  ///
  /// - Parameter root: The root command.
  init(root: any ParsableCommand.Type) {
    var nodes: [Node] = []
    func visit(_ command: any ParsableCommand.Type, path: [String]) {
      let configuration = command.configuration
      let here = path + [configuration.name]
      nodes.append(Node(path: here, configuration: configuration))
      for child in configuration.subcommands { visit(child, path: here) }
    }
    visit(root, path: [])
    self.nodes = nodes
  }

  /// The root's name (`folio`).
  var toolName: String { nodes[0].path[0] }

  /// The options every command accepts besides its own (`--help`, and `--version` at the root).
  static func builtInOptions(isRoot: Bool) -> [OptionSpec] {
    var options = [
      OptionSpec(long: "help", short: "h", kind: .flag, repeatable: true, help: "Show help.")
    ]
    if isRoot {
      options.append(
        OptionSpec(
          long: "version", short: nil, kind: .flag, repeatable: true, help: "Show the version."))
    }
    return options
  }
}
