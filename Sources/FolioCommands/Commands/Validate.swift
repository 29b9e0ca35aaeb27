import FolioSystem
import FoundationEssentials
import PropertyLists
import TypeValidation
import UniformTypes

extension FolioCommand {
  /// `folio validate FILE|DIR…`: checks type declarations like a careful reviewer, for CI.
  struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "validate",
      abstract: "Check type declarations and document types in property lists.",
      discussion: """
        Reads each FILE (XML, binary, JSON or OpenStep property list; '-' for
        standard input) and every Info.plist, *-Info.plist and *.plist with type
        declarations under each DIR (build, DerivedData, .build, Pods, Carthage,
        node_modules and version-control folders skipped), builds a registry
        from them with the system types and any --declarations, FOLIO_TYPES_PATH
        and $XDG_DATA_HOME/folio/types files, and reports every problem as
        FILE:LINE:COLUMN, a severity, a stable rule code and a hint. Each rule
        has a page in docs/rules/ with a bad and a good example.

        Settings come from the first .folio.yml or .folio.json found in the
        working folder or above it (or --config FILE), then from the options.
        With --baseline, findings the baseline accepts are not reported, so only
        new ones fail; --write-baseline FILE accepts everything found now.

        human output goes to standard error, with a summary line; json, github
        and sarif output go to standard output. Exit status: 1 when any error
        is found (or any warning, with --strict), 0 otherwise, 64 for a usage
        error (an unknown rule, a malformed configuration).
        """,
      options: [
        format, strict, define, schema, preprocess, disable, warning, error, configFile, noConfig,
        baseline, writeBaseline, SharedOptions.declarations, SharedOptions.maxInputSize,
        SharedOptions.maxValues,
      ],
      arguments: [fileArguments])

    static let format = Option.choice(
      "format", valueName: "FORMAT", of: DiagnosticFormat.self,
      help: "human (default), json (Schemas/validate-output.schema.json), github, or sarif.")
    static let strict = Option.flag("strict", help: "Treat warnings as errors for the exit status.")
    static let define = Option.repeating(
      "define", short: "D", valueName: "NAME=VALUE",
      help:
        "Give a build variable ($(NAME), ${NAME}, @NAME@) or preprocessor macro a value; identifiers written $(PRODUCT_BUNDLE_IDENTIFIER).ext are checked without one."
    )
    static let schema = Option.flag(
      "schema",
      help: "Also check XML files against the RELAX NG schemas in Schemas/ (via libxml2).")
    static let preprocess = Option.flag(
      "preprocess",
      help: "Run C preprocessor directives (#if, #define …) in templates first, with the -D macros."
    )
    static let disable = Option.repeating(
      "disable", valueName: "RULE", help: "Do not report RULE (a rule code); may repeat.")
    static let warning = Option.repeating(
      "warning", valueName: "RULE", help: "Report RULE as a warning; may repeat.")
    static let error = Option.repeating(
      "error", valueName: "RULE", help: "Report RULE as an error; may repeat.")
    static let configFile = Option.path(
      "config", valueName: "FILE",
      help: "Read settings from FILE instead of the nearest .folio.yml or .folio.json.")
    static let noConfig = Option.flag(
      "no-config", help: "Read no configuration file.")
    static let baseline = Option.path(
      "baseline", valueName: "FILE", help: "Do not report the findings FILE accepts.")
    static let writeBaseline = Option.path(
      "write-baseline", valueName: "FILE",
      help: "Write every finding to FILE as a baseline, and exit 0.")
    static let fileArguments = Argument.many(
      "FILE", minimum: 1, help: "Property lists, or folders to search for them.")

    let files: [String]
    let format: DiagnosticFormat
    let strict: Bool
    let variables: BuildVariables
    let schema: Bool
    let preprocess: Bool
    let ruleSettings: [(RuleConfiguration.Setting, String)]
    let configPath: String?
    let noConfiguration: Bool
    let baselinePath: String?
    let writeBaselinePath: String?
    let declarations: [String]
    let readOptions: PropertyListReadOptions

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
      preprocess = try arguments[Self.preprocess]
      var settings: [(RuleConfiguration.Setting, String)] = []
      var named: [String: String] = [:]
      for (option, setting) in [
        (Self.disable, RuleConfiguration.Setting.disabled), (Self.warning, .severity(.warning)),
        (Self.error, .severity(.error)),
      ] {
        for code in try arguments[option] {
          do {
            try RuleConfiguration.checkRuleCode(code)
          } catch let error as UniformTypeError {
            throw UsageError("--\(option.spec.long): \(error.message)")
          }
          if let earlier = named[code], earlier != option.spec.long {
            throw UsageError(
              "the rule \(code) is given to both --\(earlier) and --\(option.spec.long)")
          }
          named[code] = option.spec.long
          settings.append((setting, code))
        }
      }
      ruleSettings = settings
      configPath = try arguments[Self.configFile]
      noConfiguration = try arguments[Self.noConfig]
      if configPath != nil && noConfiguration {
        throw UsageError("--config and --no-config exclude each other")
      }
      baselinePath = try arguments[Self.baseline]
      writeBaselinePath = try arguments[Self.writeBaseline]
      if baselinePath != nil && writeBaselinePath != nil {
        throw UsageError("--baseline and --write-baseline exclude each other")
      }
      declarations = try arguments[SharedOptions.declarations]
      readOptions = try SharedOptions.readOptions(arguments)
      if files.filter({ $0 == "-" }).count > 1 {
        throw UsageError("standard input ('-') can be named only once")
      }
    }

    /// How the command line names the remedies in hints.
    static let remedies = TypeDeclarationValidator.Remedies(
      defineVariable: { "-D \($0)=value resolves it" },
      preprocess: "--preprocess runs its directives (with -D NAME=value for its macros)",
      loadDeclarations: "--declarations FILE loads the file that declares it",
      raiseInputLimit: "raise the limit with --max-input-size")

    func run(_ context: CommandContext) async throws -> ExitCode {
      let configuration = try loadConfiguration(context)
      var options = TypeDeclarationValidator.Options(
        variables: BuildVariables(configuration.definitions.merging(variables.values) { $1 }),
        schema: schema || configuration.schema == true,
        preprocess: preprocess || configuration.preprocess == true,
        rules: configuration.rules)
      options.readOptions = readOptions
      for (setting, code) in ruleSettings {
        try options.rules.set(setting, for: code)
      }
      if writeBaselinePath == nil {
        if let path = baselinePath {
          options.baseline = try usage {
            try ValidationBaseline(contentsOf: URL(fileURLWithPath: context.absolutePath(path)))
          }
        } else if let url = configuration.baseline {
          options.baseline = try usage { try ValidationBaseline(contentsOf: url) }
        }
      }

      let registry = try context.loadTypeRegistry(
        declarations: declarations, reportWarnings: false, includingDesktopTypes: false)
      var inputs: [TypeDeclarationValidator.Input] = []
      var findings: [Diagnostic] = []
      for file in files {
        if file == "-" {
          do {
            inputs.append(
              .init(
                data: try PlistInput.standardInput(context, options: options.readOptions),
                displayName: "-"))
          } catch let error as PropertyListError {
            context.standardError.write(PlistInput.render(error, file: "-") + "\n")
            return .failure
          }
          continue
        }
        let url = URL(fileURLWithPath: context.absolutePath(file))
        if FileTree.isFolderFollowingLinks(url.path) {
          let found = PropertyListDiscovery.find(
            in: url, displayName: file, excludedNames: configuration.excludedNames,
            excludedPaths: configuration.excludedPaths)
          inputs += found.inputs
          findings += found.problems
          if found.inputs.isEmpty {
            findings.append(
              ValidationRule.noPropertyLists.diagnostic(
                "\(file) holds no Info.plist, *-Info.plist or property list with type declarations",
                at: SourceLocation(file: file),
                hint: "name the property lists to check, or a folder that holds them"))
          }
        } else {
          inputs.append(.init(url: url, displayName: file))
        }
      }

      // The desktop database only names other vendors' formats (for `foreign-export`), read
      // when a file first needs it; the registry stays the system's, so no other rule
      // depends on the machine.
      let validator = TypeDeclarationValidator(
        baseRegistry: registry, remedies: Self.remedies,
        desktopDatabase: { [context] in context.loadDesktopDatabase() })
      let report = try validator.validate(inputs, options: options, findings: findings)
      let failed = report.fails(strict: strict || configuration.strict == true)

      if let path = writeBaselinePath {
        let baseline = ValidationBaseline(accepting: report)
        // Foundation's atomic write (a temporary beside the file, then a rename) until the
        // support module's one atomic writer takes it.
        let url = URL(fileURLWithPath: context.absolutePath(path))
        do {
          try baseline.data().write(to: url, options: .atomic)
        } catch {
          context.standardError.write(
            "error: cannot write the baseline \(path): \(ErrorReport.plain(error))\n")
          return .failure
        }
        context.standardError.write(
          "wrote \(baseline.findings.count) finding\(baseline.findings.count == 1 ? "" : "s") to the baseline \(path)\n"
        )
        return .success
      }
      let renderer = DiagnosticRenderer(
        tool: .init(
          name: FolioMain.toolName, version: FolioMain.version,
          informationURI: FolioMain.repositoryURL,
          documentationBaseURI: FolioMain.documentationBaseURL))
      let exitCode: ExitCode = failed ? .failure : .success
      switch format {
      case .human:
        let colored =
          context.standardError.isTerminal && context.environment["NO_COLOR"] == nil
        context.standardError.write(
          renderer.human(report, styleSeverity: colored ? TerminalStyle.severity : { $1 }))
      case .json, .github, .sarif:
        context.standardOutput.write(renderer.render(report, as: format, exitCode: exitCode.code))
      }
      return exitCode
    }

    /// The configuration to apply.
    ///
    /// `--config FILE`, else the nearest `.folio.yml`/`.folio.json` upward from the working
    /// folder, unless `--no-config`. A malformed one is a usage error.
    private func loadConfiguration(_ context: CommandContext) throws -> ValidationConfiguration {
      if noConfiguration { return ValidationConfiguration() }
      return try usage {
        if let configPath {
          return try ValidationConfiguration.load(
            from: URL(fileURLWithPath: context.absolutePath(configPath)), displayName: configPath)
        }
        guard
          let found = try ValidationConfiguration.find(
            from: URL(fileURLWithPath: context.currentDirectory, isDirectory: true))
        else { return ValidationConfiguration() }
        return try ValidationConfiguration.load(from: found)
      }
    }

    /// Runs a step whose ``UniformTypeError`` is the user's to fix: a usage error (64).
    private func usage<T>(_ body: () throws -> T) throws -> T {
      do {
        return try body()
      } catch let error as UniformTypeError {
        throw UsageError(error.description)
      }
    }
  }
}
