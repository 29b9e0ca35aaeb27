import Foundation
import UniformTypes

extension FolioCommand {
  /// `folio validate FILE…`: checks type declarations like a careful reviewer, for CI.
  struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "validate",
      abstract: "Check type declarations and document types in property lists.",
      discussion: """
        Reads each FILE (XML, binary or JSON property list; '-' for standard
        input), builds a registry from them together with the system types and
        any --declarations, FOLIO_TYPES_PATH and $XDG_DATA_HOME/folio/types
        files, and reports every problem as FILE:LINE:COLUMN, a severity, a
        stable rule code and a hint. Rules are listed in the README.

        human output goes to standard error, with a summary line; json, github
        and sarif output go to standard output. Exit status: 1 when any error
        is found (or any warning, with --strict), 0 otherwise.
        """,
      options: [format, strict, define, schema, SharedOptions.declarations],
      arguments: [fileArguments])

    static let format = Option.choice(
      "format", valueName: "FORMAT", of: DiagnosticFormat.self,
      help: "human (default), json (Schemas/validate-output.schema.json), github, or sarif.")
    static let strict = Option.flag("strict", help: "Treat warnings as errors for the exit status.")
    static let define = Option.repeating(
      "define", short: "D", valueName: "NAME=VALUE",
      help: "Give a build variable such as $(PRODUCT_BUNDLE_IDENTIFIER) a value.")
    static let schema = Option.flag(
      "schema",
      help: "First check XML files against the RELAX NG schemas in Schemas/ (via libxml2).")
    static let fileArguments = Argument.many("FILE", minimum: 1, help: "Property lists to check.")

    let files: [String]
    let format: DiagnosticFormat
    let strict: Bool
    let variables: BuildVariables
    let schema: Bool
    let declarations: [String]

    init(parsing arguments: ParsedArguments) throws {
      files = arguments[Self.fileArguments]
      format = try arguments[Self.format] ?? .human
      strict = try arguments[Self.strict]
      do {
        variables = try BuildVariables.parse(try arguments[Self.define])
      } catch let error as UniformTypeError {
        throw UsageError("\(error.message) for '-D'")
      }
      schema = try arguments[Self.schema]
      declarations = try arguments[SharedOptions.declarations]
      if files.filter({ $0 == "-" }).count > 1 {
        throw UsageError("standard input ('-') can be named only once")
      }
    }

    func run(_ context: CommandContext) async throws -> ExitCode {
      let registry = try context.loadTypeRegistry(declarations: declarations, reportWarnings: false)
      var inputs: [TypeDeclarationValidator.Input] = []
      for file in files {
        if file == "-" {
          inputs.append(.init(data: try context.readStandardInput(), displayName: "-"))
        } else {
          inputs.append(
            .init(url: URL(fileURLWithPath: context.absolutePath(file)), displayName: file))
        }
      }
      let validator = TypeDeclarationValidator(baseRegistry: registry)
      let report = try validator.validate(inputs, variables: variables, schema: schema)
      let renderer = DiagnosticRenderer(
        toolVersion: FolioMain.version,
        usesColor: context.standardError.isTerminal && context.environment["NO_COLOR"] == nil)
      switch format {
      case .human:
        context.standardError.write(renderer.human(report))
      case .json, .github, .sarif:
        context.standardOutput.write(renderer.render(report, as: format))
      }
      return report.fails(strict: strict) ? .failure : .success
    }
  }
}
