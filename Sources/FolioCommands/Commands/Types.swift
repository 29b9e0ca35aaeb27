extension FolioCommand {
  /// `folio types`: questions to the type registry.
  struct Types: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "types",
      abstract: "List, show, compare and identify uniform types.",
      discussion: """
        Every subcommand uses the system types compiled into folio, the files
        given with --declarations, and every *.plist in the directories of
        FOLIO_TYPES_PATH and in $XDG_DATA_HOME/folio/types (default
        ~/.local/share/folio/types), and the Linux desktop's shared MIME
        database (mime/packages/*.xml in $XDG_DATA_DIRS, default
        /usr/local/share:/usr/share, and in $XDG_DATA_HOME), kept read in
        $XDG_CACHE_HOME/folio while its files are unchanged.
        """,
      subcommands: [List.self, Show.self, Conforms.self, Identify.self])
  }
}
