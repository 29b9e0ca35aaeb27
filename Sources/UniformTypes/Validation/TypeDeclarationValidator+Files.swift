public import Foundation
import PropertyLists

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

  /// Reads and validates files together.
  ///
  /// A file that cannot be read or parsed is an `unreadable-file` error at the
  /// place the reader stopped; the other files are still validated. With
  /// `schema`, XML files first go through the RELAX NG schemas of `Schemas/`
  /// (plist shape, then type declarations), whose violations are
  /// `schema-violation` errors with lines.
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
    var sources: [DeclarationSource] = []
    var extra: [Diagnostic] = []
    for input in inputs {
      let name = input.displayName
      let data: Data
      do {
        switch input.content {
        case .file(let url): data = try Data(contentsOf: url)
        case .data(let bytes): data = bytes
        }
      } catch {
        extra.append(
          ValidationRule.unreadableFile.diagnostic(
            "cannot read \(name): \((error as NSError).localizedDescription)",
            at: SourceLocation(file: name), hint: "check the path and its permissions"))
        continue
      }
      let document: PropertyListDocument
      do {
        document = try PropertyListReader.read(data, file: name)
      } catch let error as PropertyListError {
        extra.append(
          ValidationRule.unreadableFile.diagnostic(
            "not a readable property list: \(error.message) [\(error.code)]",
            at: error.location ?? SourceLocation(file: name),
            hint: "fix the syntax; `folio validate` reads XML, binary and JSON property lists"))
        continue
      }
      if schema && document.format != .xml {
        extra.append(
          ValidationRule.schemaSkipped.diagnostic(
            "the RELAX NG schemas apply to XML; this \(document.format.rawValue) property list was checked by the validator only",
            at: SourceLocation(file: name), hint: "convert it to XML to check its structure too"))
      }
      if schema && document.format == .xml {
        let shape = try PropertyListSchema.plist.validate(data, file: name)
        extra += shape
        if shape.isEmpty {
          extra += try PropertyListSchema.typeDeclarations.validate(data, file: name)
        }
      }
      sources.append(DeclarationSource(document: document, name: name, variables: variables))
    }
    let diagnostics = validate(sources) + extra
    let ordered = ValidationRun.sort(diagnostics, fileOrder: inputs.map(\.displayName))
    return ValidationReport(files: inputs.map(\.displayName), diagnostics: ordered)
  }
}
