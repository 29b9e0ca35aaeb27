internal import CLibXML2
import UniformTypes

/// Owns one compiled RELAX NG schema; frees it in `deinit`.
///
/// The corresponding C functions are `xmlRelaxNGNewMemParserCtxt`,
/// `xmlRelaxNGParse` and `xmlRelaxNGFree`.
final class RelaxNGSchemaHandle {
  let pointer: xmlRelaxNGPtr

  /// Compiles a schema from its text.
  ///
  /// - Parameters:
  ///   - source: The RELAX NG text.
  ///   - name: The schema's name, for messages.
  /// - Throws: ``UniformTypeError`` with `schema-failure` naming the first problem.
  init(source: String, name: String) throws {
    _ = LibXML.initialized
    let collector = LibXML.ErrorCollector()
    let bytes = Array(source.utf8)
    // The parser context keeps a pointer to the text and reads it only in
    // `xmlRelaxNGParse`, so the whole compilation happens while the buffer is alive.
    let schema = try bytes.withUnsafeBufferPointer { buffer in
      try buffer.withMemoryRebound(to: CChar.self) { characters -> xmlRelaxNGPtr? in
        let parser = try LibXML.check(
          xmlRelaxNGNewMemParserCtxt(characters.baseAddress, Int32(characters.count)),
          "create a RELAX NG parser for \(name)")
        defer { xmlRelaxNGFreeParserCtxt(parser) }
        return withExtendedLifetime(collector) {
          xmlRelaxNGSetParserStructuredErrors(
            parser, LibXML.ErrorCollector.callback, Unmanaged.passUnretained(collector).toOpaque())
          return xmlRelaxNGParse(parser)
        }
      }
    }
    pointer = try LibXML.check(schema, "compile the schema \(name)", problems: collector.problems)
  }

  deinit {
    xmlRelaxNGFree(pointer)
  }

  /// Validates a document.
  ///
  /// - Parameter document: The parsed document.
  /// - Returns: The violations, each with its line; empty when valid.
  /// - Throws: ``UniformTypeError`` with `schema-failure` on an internal libxml2 error.
  func validate(_ document: XMLDocumentHandle) throws -> [LibXML.Problem] {
    let context = try RelaxNGValidationContextHandle(schema: self)
    return try context.validate(document)
  }
}
