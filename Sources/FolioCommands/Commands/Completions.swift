extension FolioCommand {
  /// `folio completions bash|zsh|fish`: prints a shell completion script.
  struct Completions: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "completions",
      abstract: "Print a completion script for bash, zsh or fish.",
      discussion: """
        The script completes subcommands, options, formats and other option
        values, paths, and type identifiers and extensions (asking 'folio types
        list' as you type, so declared types complete too). It is generated
        from the same declarations as --help. Install it where the shell looks:
        bash: /usr/share/bash-completion/completions/folio (or source it from
        ~/.bashrc); zsh: a file named _folio in a folder on $fpath; fish:
        ~/.config/fish/completions/folio.fish.
        """,
      arguments: [shellArgument])

    static let shellArgument = Argument.one(
      "SHELL", completion: .values(CompletionScript.Shell.allCases.map(\.rawValue)),
      help: "bash, zsh or fish.")

    let shell: CompletionScript.Shell

    init(parsing arguments: ParsedArguments) throws {
      let word = arguments[Self.shellArgument]
      guard let shell = CompletionScript.Shell(rawValue: word) else {
        let names = CompletionScript.Shell.allCases.map(\.rawValue)
        throw UsageError(
          "unknown shell '\(word)': expected one of \(names.joined(separator: ", "))"
            + Suggestions.didYouMean(word, among: names))
      }
      self.shell = shell
    }

    func run(_ context: CommandContext) async throws -> ExitCode {
      let script = CompletionScript(tree: CommandTree(root: FolioCommand.self))
      context.standardOutput.write(script.script(for: shell))
      return .success
    }
  }
}
