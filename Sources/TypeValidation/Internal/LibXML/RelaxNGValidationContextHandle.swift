internal import CLibXML2
import UniformTypes

/// Owns one RELAX NG validation context; frees it in `deinit`.
///
/// The corresponding C functions are `xmlRelaxNGNewValidCtxt` and `xmlRelaxNGFreeValidCtxt`.
final class RelaxNGValidationContextHandle {
  let pointer: xmlRelaxNGValidCtxtPtr
  /// The schema the context validates against, kept alive as long as the context.
  let schema: RelaxNGSchemaHandle
  private let collector = LibXML.ErrorCollector()

  /// Creates a validation context.
  ///
  /// - Parameter schema: The compiled schema.
  /// - Throws: ``UniformTypeError`` with `schema-failure` when libxml2 cannot allocate one.
  init(schema: RelaxNGSchemaHandle) throws {
    self.schema = schema
    pointer = try LibXML.check(
      xmlRelaxNGNewValidCtxt(schema.pointer), "create a validation context")
    xmlRelaxNGSetValidStructuredErrors(
      pointer, LibXML.ErrorCollector.callback, Unmanaged.passUnretained(collector).toOpaque())
  }

  deinit {
    xmlRelaxNGFreeValidCtxt(pointer)
  }

  /// Validates a document.
  ///
  /// The corresponding C function is `xmlRelaxNGValidateDoc`.
  ///
  /// - Parameter document: The parsed document.
  /// - Returns: The violations; empty when valid.
  /// - Throws: ``UniformTypeError`` with `schema-failure` on an internal error.
  func validate(_ document: XMLDocumentHandle) throws -> [LibXML.Problem] {
    collector.problems = []
    let code = withExtendedLifetime(document) { xmlRelaxNGValidateDoc(pointer, document.pointer) }
    return try LibXML.checkValidation(code, problems: collector.problems)
  }
}
