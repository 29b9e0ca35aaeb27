import FolioSystem
public import FoundationEssentials
import Glibc
public import PropertyLists
public import UniformTypes

extension TypeDeclarationValidator {
  /// One file to validate: where its bytes come from and how to name it in diagnostics.
  public struct Input: Sendable {
    /// Where the bytes are.
    public enum Content: Sendable {
      /// A file to read.
      case file(URL)
      /// Bytes already read (standard input).
      case data(Data)
    }

    /// Where the bytes are.
    public var content: Content
    /// The name used in diagnostics (the path as the user typed it, `-` for standard input).
    public var displayName: String

    /// Creates an input for a file.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - displayName: The name used in diagnostics; the path when `nil`.
    public init(url: URL, displayName: String? = nil) {
      self.content = .file(url)
      self.displayName = displayName ?? url.path
    }

    /// Creates an input for bytes already read.
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - displayName: The name used in diagnostics.
    public init(data: Data, displayName: String) {
      self.content = .data(data)
      self.displayName = displayName
    }
  }

  /// How to validate files.
  public struct Options: Sendable {
    /// Build-variable values (`$(NAME)`, `${NAME}`, `@NAME@`), also the preprocessor's macros.
    public var variables: BuildVariables
    /// Whether XML files first go through the RELAX NG schemas.
    public var schema: Bool
    /// Whether files with C preprocessor directives are preprocessed before reading.
    public var preprocess: Bool
    /// Which rules report, at what severity.
    public var rules: RuleConfiguration
    /// Findings accepted for now.
    public var baseline: ValidationBaseline?
    /// Limits on reading each property list.
    public var readOptions: PropertyListReadOptions

    /// Creates options.
    ///
    /// - Parameters:
    ///   - variables: Build-variable values.
    ///   - schema: Whether to run the schema pass.
    ///   - preprocess: Whether to preprocess C preprocessor templates.
    ///   - rules: Which rules report, at what severity.
    ///   - baseline: Findings accepted for now.
    ///   - readOptions: Limits on reading each property list.
    public init(
      variables: BuildVariables = .init(), schema: Bool = false, preprocess: Bool = false,
      rules: RuleConfiguration = .init(), baseline: ValidationBaseline? = nil,
      readOptions: PropertyListReadOptions = .init()
    ) {
      self.variables = variables
      self.schema = schema
      self.preprocess = preprocess
      self.rules = rules
      self.baseline = baseline
      self.readOptions = readOptions
    }
  }

  /// Reads and validates files together.
  ///
  /// - Parameters:
  ///   - inputs: The files, in the order the user named them.
  ///   - variables: Build variables (`-D NAME=VALUE`).
  ///   - schema: Whether to run the structural schema pass.
  /// - Returns: The report.
  /// - Throws: ``UniformTypeError`` with `schema-failure` when libxml2 fails internally.
  public func validate(
    _ inputs: [Input], variables: BuildVariables = .init(), schema: Bool = false
  ) throws -> ValidationReport {
    try validate(inputs, options: Options(variables: variables, schema: schema))
  }

  /// Reads and validates files together.
  ///
  /// A file that cannot be read or parsed is an `unreadable-file` error at the place the reader
  /// stopped, and a build template (C preprocessor or m4) that is not preprocessed is one
  /// `build-template` warning; the other files are still validated. With `schema`, XML files
  /// also go through the RELAX NG schemas of `Schemas/` (plist shape, then type declarations);
  /// a violation that a rule reports too, inside the same key, is left to the rule, so each
  /// problem is reported once, at the value's line. Rule settings apply next, then the
  /// baseline.
  ///
  /// - Parameters:
  ///   - inputs: The files, in the order the user named them.
  ///   - options: How to validate.
  ///   - findings: Problems found before reading, such as a folder walk's; reported with the
  ///     rest (rule settings and the baseline apply to them too).
  /// - Returns: The report.
  /// - Throws: ``UniformTypeError`` with `schema-failure` when libxml2 fails internally.
  public func validate(_ inputs: [Input], options: Options, findings: [Diagnostic] = [])
    throws -> ValidationReport
  {
    var sources: [DeclarationSource] = []
    var extra: [Diagnostic] = findings
    var schemaFindings: [Diagnostic] = []
    for input in inputs {
      let name = input.displayName
      var data: Data
      do {
        switch input.content {
        case .file(let url): data = try Self.readFile(url, name: name, options: options.readOptions)
        case .data(let bytes): data = bytes
        }
      } catch let error as PropertyListError {
        extra.append(
          ValidationRule.unreadableFile.diagnostic(
            "\(error.message) [\(error.code)]", at: error.location ?? SourceLocation(file: name),
            hint: error.code == .inputTooLarge
              ? remedies.raiseInputLimit : "check the path and its permissions"))
        continue
      }
      let template = BuildTemplate.detect(in: data)
      if options.preprocess, let template, template.processor == .cPreprocessor {
        do {
          data = try InfoPlistPreprocessor(definitions: options.variables.values).process(
            data, file: name)
        } catch let error as UniformTypeError {
          extra.append(
            ValidationRule.unreadableFile.diagnostic(
              "cannot preprocess: \(error.message)",
              at: error.location ?? SourceLocation(file: name),
              hint: "preprocess it with the build and validate the result"))
          continue
        }
      }
      let document: PropertyListDocument
      do {
        document = try PropertyListReader.read(data, file: name, options: options.readOptions)
      } catch let error as PropertyListError {
        extra.append(
          readFailure(
            error,
            template: options.preprocess && template?.processor == .cPreprocessor ? nil : template,
            file: name))
        continue
      }
      if options.schema && document.format != .xml {
        extra.append(
          ValidationRule.schemaSkipped.diagnostic(
            "the RELAX NG schemas apply to XML; this \(document.format.rawValue) property list was checked by the rules only",
            at: SourceLocation(file: name), hint: "convert it to XML to check its structure too"))
      }
      if options.schema && document.format == .xml {
        let shape = try PropertyListSchema.plist.validate(data, file: name)
        schemaFindings += shape
        if shape.isEmpty {
          schemaFindings += try PropertyListSchema.typeDeclarations.validate(data, file: name)
        }
      }
      sources.append(
        DeclarationSource(document: document, name: name, variables: options.variables))
    }
    let ruleFindings = validate(sources) + extra
    let all = ruleFindings + Self.schemaFindingsNoRuleCovers(schemaFindings, ruleFindings)
    let configured = options.rules.apply(to: all)
    let ordered = ValidationRun.sort(configured, fileOrder: inputs.map(\.displayName))
    let report = ValidationReport(files: inputs.map(\.displayName), diagnostics: ordered)
    return options.baseline?.filtering(report) ?? report
  }

  /// Reads a file within the size limit, checked before reading and held while reading
  /// (a file that grows meanwhile is refused too), with the system's words for a failure.
  static func readFile(_ url: URL, name: String, options: PropertyListReadOptions) throws -> Data {
    do {
      return Data(try FileContents.read(atPath: url.path, limit: options.maximumInputSize))
    } catch .tooLarge(let size) {
      throw PropertyListError(
        .inputTooLarge,
        "\(name) is \(size) bytes, more than the limit of \(options.maximumInputSize) bytes for a property list",
        location: SourceLocation(file: name))
    } catch .system(let cause) {
      let reason = cause.errno == EISDIR ? "it is a folder" : "\(cause)"
      throw PropertyListError(
        .readFailed, "cannot read \(name): \(reason)", location: SourceLocation(file: name),
        cause: cause)
    }
  }

  /// A file the reader refused: a build template once, or an unreadable file at the reader's place.
  private func readFailure(_ error: PropertyListError, template: BuildTemplate?, file: String)
    -> Diagnostic
  {
    if let template {
      let hint =
        switch template.processor {
        case .cPreprocessor: remedies.preprocess
        case .m4: "validate the file the build makes from it (Folio does not run m4)"
        case .cmake: "validate the file CMake's configure_file makes from it"
        }
      return ValidationRule.buildTemplate.diagnostic(
        "\(file) is a \(template.processor.rawValue) template (\(template.directive) at line \(template.line)), not a property list until the build processes it",
        at: SourceLocation(file: file, line: template.line, column: 1), hint: hint)
    }
    return ValidationRule.unreadableFile.diagnostic(
      "not a readable property list: \(error.message) [\(error.code)]",
      at: error.location ?? SourceLocation(file: file),
      hint: "fix the syntax; Folio reads XML, binary, JSON and OpenStep property lists")
  }

  /// The codes of rules that check what the type-declarations schema checks: value types, the
  /// words of roles and ranks, the identifier, repeated keys.
  static let codesCoveringTheSchema: Set<String> = [
    ValidationRule.wrongValueType.code, ValidationRule.invalidRole.code,
    ValidationRule.invalidHandlerRank.code, ValidationRule.missingIdentifier.code,
    ValidationRule.unresolvedVariable.code, Diagnostic.duplicateKeyCode,
    Diagnostic.strayKeyCode,
  ]

  /// Schema violations that no rule reports.
  ///
  /// Every constraint of the type-declarations schema has a rule that checks the same thing at
  /// the value's own line, while libxml2's RELAX NG validator, backtracking through the
  /// grammar's choices, often blames an earlier element. So a violation is left to the rules
  /// when one of the covering rules reported anything in the same file; a violation no rule
  /// explains (a disagreement between the
  /// two, which is itself worth seeing) is kept.
  static func schemaFindingsNoRuleCovers(_ violations: [Diagnostic], _ ruleFindings: [Diagnostic])
    -> [Diagnostic]
  {
    let coveredFiles = Set(
      ruleFindings.compactMap { finding in
        codesCoveringTheSchema.contains(finding.code) ? finding.location?.file : nil
      })
    return violations.filter { !coveredFiles.contains($0.location?.file ?? "") }
  }
}
