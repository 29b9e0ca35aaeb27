import UniformTypes

extension FolioCommand.Types {
  /// `folio types conforms A B`: whether A conforms to B; the answer is the exit status.
  struct Conforms: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "conforms",
      abstract: "Tell whether type A conforms to type B (exit 0 yes, 1 no).",
      discussion: """
        A and B are identifiers, extensions or MIME types. Conformance is
        reflexive and transitive. An identifier declared nowhere conforms only
        to itself. Prints the answer in words, and exits 0 when A conforms to
        B and 1 when it does not.
        """,
      options: [SharedOptions.declarations],
      arguments: [firstArgument, secondArgument])

    static let firstArgument = Argument.one("A", completion: .type, help: "The type asked about.")
    static let secondArgument = Argument.one(
      "B", completion: .type, help: "The type it may conform to.")

    let first: String
    let second: String
    let declarations: [String]

    init(parsing arguments: ParsedArguments) throws {
      first = arguments[Self.firstArgument]
      second = arguments[Self.secondArgument]
      declarations = try arguments[SharedOptions.declarations]
    }

    func run(_ context: CommandContext) async throws -> ExitCode {
      let registry = try context.loadTypeRegistry(declarations: declarations)
      let a = try identifier(first, in: registry)
      let b = try identifier(second, in: registry)
      if registry.conforms(a, to: b) {
        context.standardOutput.write("\(a) conforms to \(b)\n")
        return .success
      }
      context.standardOutput.write("\(a) does not conform to \(b)\n")
      return .failure
    }

    /// A resolved type, or the text as an identifier when it looks like one.
    private func identifier(_ text: String, in registry: TypeRegistry) throws -> TypeIdentifier {
      if let resolved = registry.identifier(resolving: text) { return resolved }
      if TypeIdentifier(text).isWellFormed { return TypeIdentifier(text) }
      throw UsageError(
        "unknown type '\(text)': not an identifier, a known extension or MIME type"
          + TypeSuggestions.didYouMean(text, registry: registry))
    }
  }
}
