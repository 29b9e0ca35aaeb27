import UniformTypes

extension FolioCommand.Types {
  /// `folio types list`: every known type, one per line.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "list",
      abstract: "List every known type: identifier, description, extensions and MIME types.",
      discussion: """
        One type per line, sorted by identifier: the identifier, then its
        description, its extensions (with dots) and MIME types, separated by
        tabs. --conforming-to keeps the types that conform to a type (named by
        identifier, extension or MIME type), that type included.
        """,
      options: [conformingToOption, SharedOptions.declarations])

    static let conformingToOption = Option.string(
      "conforming-to", valueName: "TYPE", completion: .type,
      help: "Only types conforming to TYPE (an identifier, extension or MIME type).")

    let conformingTo: String?
    let declarations: [String]

    init(parsing arguments: ParsedArguments) throws {
      conformingTo = try arguments[Self.conformingToOption]
      declarations = try arguments[SharedOptions.declarations]
    }

    func run(_ context: CommandContext) async throws -> ExitCode {
      let registry = try context.loadTypeRegistry(declarations: declarations)
      var declarations = registry.declarations
      if let conformingTo {
        guard let parent = registry.identifier(resolving: conformingTo) else {
          throw UsageError(
            "unknown type '\(conformingTo)' for '--conforming-to'"
              + TypeSuggestions.didYouMean(conformingTo, registry: registry))
        }
        declarations = declarations.filter { registry.conforms($0.typeIdentifier, to: parent) }
      }
      var text = ""
      for declaration in declarations {
        let extensions = declaration.filenameExtensions.map { "." + $0 }.joined(separator: " ")
        let mimeTypes = declaration.mimeTypes.joined(separator: " ")
        text +=
          [
            declaration.typeIdentifier.rawValue, declaration.typeDescription?.value ?? "",
            extensions,
            mimeTypes,
          ].joined(separator: "\t") + "\n"
      }
      context.standardOutput.write(text)
      return .success
    }
  }
}
