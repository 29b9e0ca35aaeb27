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
      options: [
        .value(
          "format", valueName: "FORMAT",
          help: "human (default), json (Schemas/validate-output.schema.json), github, or sarif."),
        .flag("strict", help: "Treat warnings as errors for the exit status."),
        .value(
          "define", short: "D", valueName: "NAME=VALUE", repeatable: true,
          help: "Give a build variable such as $(PRODUCT_BUNDLE_IDENTIFIER) a value."),
        .flag(
          "schema",
          help: "First check XML files against the RELAX NG schemas in Schemas/ (via libxml2)."),
        .value(
          "declarations", valueName: "FILE", repeatable: true,
          help: "Also load types declared in FILE (repeatable), as known types."),
      ],
      arguments: [
        ArgumentSpec("FILE", arity: .many(minimum: 1), help: "Property lists to check.")
      ])

    let files: [String]
    let format: DiagnosticFormat
    let strict: Bool
    let variables: BuildVariables
    let schema: Bool
    let declarations: [String]

    init(parsing arguments: ParsedArguments) throws {
      files = arguments.arguments("FILE")
      let choice = try arguments.choice(
        "format", from: DiagnosticFormat.allCases.map(\.rawValue))
      format = choice.flatMap(DiagnosticFormat.init(rawValue:)) ?? .human
      strict = arguments.flag("strict")
      do {
        variables = try BuildVariables.parse(arguments.values("define"))
      } catch let error as UniformTypeError {
        throw UsageError("\(error.message) for '-D'")
      }
      schema = arguments.flag("schema")
      declarations = arguments.values("declarations")
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
