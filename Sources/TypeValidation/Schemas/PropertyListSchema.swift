import FolioSystem
public import FoundationEssentials
public import PropertyLists
import UniformTypes

/// A RELAX NG schema from `Schemas/`, for a structural first pass over XML property lists.
///
/// The schemas are compiled into the binary (see `scripts/embed-schemas.sh`),
/// so an installed `folio` needs no checkout and no network. Validation runs
/// through libxml2 and reports each violation with its line.
public enum PropertyListSchema: String, Sendable, CaseIterable {
  /// `Schemas/plist.rng`: the shape of Apple's `PropertyList-1.0.dtd`.
  case plist
  /// `Schemas/type-declarations.rng`: a property list holding type declarations and document types.
  case typeDeclarations

  /// The schema's file name in `Schemas/`.
  public var fileName: String {
    switch self {
    case .plist: "plist.rng"
    case .typeDeclarations: "type-declarations.rng"
    }
  }

  /// The schema's RELAX NG text, exactly as in `Schemas/`.
  public var source: String {
    switch self {
    case .plist: EmbeddedSchemas.plist + "\n"
    case .typeDeclarations: EmbeddedSchemas.typeDeclarations + "\n"
    }
  }

  /// The keys whose values the declarations schema constrains.
  static let declarationKeys: Set<String> = [
    "UTExportedTypeDeclarations", "UTImportedTypeDeclarations", "CFBundleDocumentTypes",
  ]

  /// libxml2 reports a failure of this grammar's top-level choice at the first key of the
  /// document; validating each declaration key, and each item of its array, on its own finds the
  /// part that breaks it, which is then named with its line.
  private func narrowed(
    _ problems: [LibXML.Problem], in document: XMLDocumentHandle, schema: RelaxNGSchemaHandle
  ) throws -> [LibXML.Problem] {
    var found: [LibXML.Problem] = []
    for part in document.parts(forKeys: Self.declarationKeys) {
      guard let whole = part.document, let partProblems = try? schema.validate(whole),
        let first = partProblems.first
      else { continue }
      var culprits: [LibXML.Problem] = []
      for item in part.items {
        guard let single = item.document, let itemProblems = try? schema.validate(single),
          let itemFirst = itemProblems.first
        else { continue }
        culprits.append(
          LibXML.Problem(
            message: "item \(item.index) \(itemFirst.message.lowercasedFirst)", line: item.line,
            column: 0, key: part.key))
      }
      found +=
        culprits.isEmpty
        ? [LibXML.Problem(message: first.message, line: part.line, column: 0, key: part.key)]
        : culprits
    }
    return found.isEmpty ? problems : found
  }

  /// Validates an XML document against the schema.
  ///
  /// The document is parsed without network access, without loading its DTD
  /// and without substituting entities.
  ///
  /// - Parameters:
  ///   - data: The XML bytes.
  ///   - file: The name used in diagnostic locations.
  /// - Returns: One `schema-violation` error per violation (or one for XML that
  ///   does not parse), each with its line and the key it concerns; empty when the document is
  ///   valid.
  /// - Throws: ``UniformTypeError`` with `schema-failure` when libxml2 cannot
  ///   compile the schema or fails internally.
  public func validate(_ data: Data, file: String) throws -> [Diagnostic] {
    let schema = try RelaxNGSchemaHandle(source: source, name: fileName)
    var problems: [LibXML.Problem]
    do {
      let document = try XMLDocumentHandle(data: data, name: file)
      problems = try schema.validate(document)
      if !problems.isEmpty, self == .typeDeclarations {
        problems = try narrowed(problems, in: document, schema: schema)
      }
    } catch let failure as LibXML.Problem {
      problems = [failure]
    }
    // libxml2 reports failed attempts inside `except` patterns as datatype errors;
    // they only add noise when a real violation is reported too.
    let noise = "Error validating datatype string"
    let meaningful = problems.filter { !$0.message.hasPrefix(noise) }
    return (meaningful.isEmpty ? problems : meaningful).map { problem in
      let subject = problem.key.map { "the value of key \(DiagnosticText.quoted($0)): " } ?? ""
      let line = problem.line > 0 ? problem.line : nil
      return ValidationRule.schemaViolation.diagnostic(
        "\(subject)\(DiagnosticText.escaped(problem.message)) (\(fileName))",
        at: SourceLocation(
          file: file, line: line, column: problem.column > 0 ? problem.column : nil),
        hint: "fix the structure so the file matches Schemas/\(fileName)")
    }
  }
}

extension String {
  /// The text with its first letter lowercased ("Element dict…" → "element dict…").
  fileprivate var lowercasedFirst: String {
    guard let first else { return self }
    return first.lowercased() + dropFirst()
  }
}
