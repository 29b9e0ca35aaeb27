import FoundationEssentials
import PropertyLists

extension FolioCommand.Plist {
  /// `folio plist lint FILE…`: reports whether each file is a valid property list.
  struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "lint",
      abstract: "Check that files are valid property lists.",
      discussion: """
        Prints 'FILE: OK' for each valid file, as plutil -lint does, and
        'FILE:LINE:COLUMN: error: …' on standard error for each invalid one.
        Warnings (such as a key that repeats in a dictionary) are printed but
        do not fail the file. Exits 1 if any file is invalid.
        """,
      options: [silent, SharedOptions.maxInputSize, SharedOptions.maxValues],
      arguments: [fileArguments]
    )

    static let silent = Option.flag("silent", short: "s", help: "Print nothing for valid files.")
    static let fileArguments = Argument.many(
      "FILE", minimum: 1, help: "Property lists to check ('-' reads standard input).")

    var files: [String]
    var silent: Bool
    var readOptions: PropertyListReadOptions

    init(parsing arguments: ParsedArguments) throws {
      files = arguments[Self.fileArguments]
      silent = try arguments[Self.silent]
      readOptions = try SharedOptions.readOptions(arguments)
    }

    func run(_ context: CommandContext) async throws -> ExitCode {
      var failed = false
      for file in files {
        try Task.checkCancellation()
        do {
          let document = try PlistInput.read(file, context: context, options: readOptions)
          for diagnostic in document.diagnostics {
            context.standardError.write(PlistInput.render(diagnostic) + "\n")
          }
          if !silent { context.standardOutput.write("\(file): OK\n") }
        } catch let error as PropertyListError {
          failed = true
          context.standardError.write(PlistInput.render(error, file: file) + "\n")
        }
      }
      return failed ? .failure : .success
    }
  }
}
