internal import CLibXML2
import FolioSystem

/// Owns one libxml2 parser context; frees it in `deinit`.
///
/// The corresponding C functions are `xmlNewParserCtxt` and `xmlFreeParserCtxt`.
final class XMLParserContextHandle {
  /// libxml2's global set-up, done once per process before the first parse.
  private static let libraryInitialized: Bool = {
    xmlInitParser()
    return true
  }()

  let pointer: xmlParserCtxtPtr

  /// Creates a parser context.
  ///
  /// - Throws: ``PropertyListError`` when libxml2 cannot allocate one.
  init() throws {
    _ = Self.libraryInitialized
    guard let context = xmlNewParserCtxt() else {
      throw PropertyListError(.malformedXML, "libxml2 could not create a parser context")
    }
    pointer = context
  }

  deinit {
    xmlFreeParserCtxt(pointer)
  }

  /// The byte offset of the parser's cursor in the document it reads.
  var cursorOffset: Int {
    guard let input = pointer.pointee.input, let base = input.pointee.base,
      let cursor = input.pointee.cur
    else { return 0 }
    return Int(input.pointee.consumed) + (cursor - base)
  }

  /// Whether the parser is reading the document itself (not an entity's replacement text).
  var isReadingDocument: Bool { pointer.pointee.inputNr == 1 }

  /// The offset of `bytes` in the document, when they point into the parser's input buffer.
  func offset(of bytes: UnsafePointer<xmlChar>) -> Int? {
    guard isReadingDocument, let input = pointer.pointee.input, let base = input.pointee.base,
      let end = input.pointee.end, bytes >= base, bytes < end
    else { return nil }
    return Int(input.pointee.consumed) + (bytes - base)
  }

  /// Stops the parse at the next opportunity.
  ///
  /// The corresponding C function is `xmlStopParser`.
  func stop() {
    xmlStopParser(pointer)
  }
}

/// libxml2's verdict on a finished parse, checked in one place.
enum LibXMLStatus {
  /// A libxml2 error as Folio reports it.
  struct Failure: Error, Sendable, CustomStringConvertible {
    var message: String
    var line: Int
    var column: Int
    var description: String { "libxml2 reported it at line \(line), column \(column)" }
  }

  /// Converts a libxml2 error record into a ``Failure`` (message without its trailing newline).
  static func failure(from error: UnsafePointer<xmlError>) -> Failure {
    let text = error.pointee.message.map { String(cString: $0) } ?? "unknown libxml2 error"
    return Failure(
      message: text.trimming(while: { $0 == " " || $0 == "\n" }), line: Int(error.pointee.line),
      column: Int(error.pointee.int2))
  }

  /// Throws unless the parse ended well-formed.
  ///
  /// - Parameters:
  ///   - context: The parser context after `xmlCtxtReadMemory` returned.
  ///   - firstError: The first error the structured handler saw, if any.
  ///   - location: Where that error is, as Folio computes positions.
  /// - Throws: ``PropertyListError`` with code `malformed-xml`.
  static func check(
    _ context: XMLParserContextHandle, firstError: Failure?, location: SourceLocation?
  ) throws {
    var failure = firstError
    if failure == nil, context.pointer.pointee.wellFormed == 0 {
      failure =
        xmlCtxtGetLastError(context.pointer).map { self.failure(from: $0) }
        ?? Failure(message: "the document is not well-formed XML", line: 0, column: 0)
    }
    guard let failure else { return }
    throw PropertyListError(
      .malformedXML, "malformed XML: \(failure.message)", location: location, cause: failure)
  }
}
