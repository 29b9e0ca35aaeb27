/// The root `folio` command: a group of subcommands.
public struct FolioCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    name: "folio",
    abstract: "Type declarations, validation and archives for document packages.",
    discussion: """
      Folio reads Apple-style type declarations (UTExportedTypeDeclarations,
      UTImportedTypeDeclarations, CFBundleDocumentTypes) from property lists,
      and flattens document packages to zip or tar and expands them again.
      Exit codes: 0 success, 1 the work failed or found errors, 64 usage error,
      130 interrupted (Ctrl-C).
      """,
    subcommands: FolioCommand.subcommands
  )

  /// The subcommands, in the order help lists them.
  ///
  /// A subcommand is listed here only once it does its whole job: no stubs.
  static let subcommands: [any ParsableCommand.Type] = [
    Pack.self, Expand.self, List.self, Verify.self, Plist.self, Validate.self, Types.self,
    Export.self,
    Completions.self,
  ]

}
