extension FolioCommand {
  /// `folio plist`: check and convert property lists.
  struct Plist: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "plist",
      abstract: "Check and convert property lists (XML, binary, JSON).",
      discussion: """
        Like plutil, but every error names its line and column (or, for binary
        property lists, its byte offset), and hostile input is refused safely.
        """,
      subcommands: [Lint.self, Convert.self]
    )
  }
}
