internal import CLibXML2
import Foundation

/// Owns one parsed libxml2 document; frees it in `deinit`.
///
/// The corresponding C functions are `xmlCtxtReadMemory` and `xmlFreeDoc`.
final class XMLDocumentHandle {
  let pointer: xmlDocPtr

  /// Parses XML safely (no network, no DTD, no entity substitution).
  ///
  /// - Parameters:
  ///   - data: The XML bytes.
  ///   - name: The document's name, for libxml2's messages.
  /// - Throws: ``LibXML/Problem`` naming the first parse error and its line.
  init(data: Data, name: String) throws {
    _ = LibXML.initialized
    guard data.count <= Int(Int32.max) else {
      throw LibXML.Problem(message: "the document is too large", line: 0, column: 0)
    }
    let context = try LibXML.check(xmlNewParserCtxt(), "create a parser context")
    defer { xmlFreeParserCtxt(context) }
    let document = data.withUnsafeBytes { raw in
      xmlCtxtReadMemory(
        context, raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count), name,
        nil, LibXML.parseOptions)
    }
    guard let document, context.pointee.wellFormed != 0 else {
      if let document { xmlFreeDoc(document) }
      if let error = xmlCtxtGetLastError(context) {
        let text = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
        throw LibXML.Problem(
          message: "not well-formed XML: \(text.trimmingCharacters(in: .whitespacesAndNewlines))",
          line: Int(error.pointee.line), column: Int(error.pointee.int2))
      }
      throw LibXML.Problem(message: "not well-formed XML", line: 0, column: 0)
    }
    pointer = document
  }

  deinit {
    xmlFreeDoc(pointer)
  }
}
