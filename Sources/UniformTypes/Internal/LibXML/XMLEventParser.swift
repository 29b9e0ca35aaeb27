internal import CLibXML2

/// Receives the events of a streaming parse, in Swift terms only.
///
/// Names, attribute values and text are views into libxml2's buffers, valid only during
/// the call that hands them over.
protocol XMLEventHandler: AnyObject {
  /// An element starts.
  ///
  /// - Parameters:
  ///   - name: Its local name and namespace.
  ///   - attributes: Its attributes.
  ///   - line: The line it starts on.
  func startElement(_ name: XMLElementName, attributes: XMLAttributeList, line: Int)
  /// The innermost open element ends.
  func endElement()
  /// Text inside the innermost open element (called once or more per run of text).
  func characters(_ text: UnsafeBufferPointer<UInt8>)
  /// Whether the parse should stop now (the handler found what it needed, or a limit).
  var shouldStop: Bool { get }
}

/// An element's name during ``XMLEventHandler/startElement(_:attributes:line:)``.
struct XMLElementName {
  /// The local name's bytes (UTF-8).
  let localName: UnsafeBufferPointer<UInt8>
  /// The namespace URI's bytes, or `nil` when the element has none.
  let namespaceURI: UnsafeBufferPointer<UInt8>?

  /// Whether the local name is `name`.
  func isNamed(_ name: StaticString) -> Bool {
    XMLEventParser.equal(localName, name)
  }

  /// Whether the element is in the namespace `uri`.
  func isInNamespace(_ uri: StaticString) -> Bool {
    guard let namespaceURI else { return false }
    return XMLEventParser.equal(namespaceURI, uri)
  }
}

/// An element's attributes during ``XMLEventHandler/startElement(_:attributes:line:)``.
struct XMLAttributeList {
  /// libxml2's array: five pointers per attribute (local name, prefix, URI, value start, end).
  fileprivate let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
  /// How many attributes there are.
  let count: Int

  /// The value of an attribute without a namespace prefix, or `nil` when absent.
  func value(_ name: StaticString) -> String? {
    value(name, prefix: nil)
  }

  /// The value of `xml:lang`.
  var language: String? {
    languageBytes.map { String(decoding: $0, as: UTF8.self) }
  }

  /// The bytes of `xml:lang`'s value, valid only during the call that hands the list over.
  var languageBytes: UnsafeBufferPointer<UInt8>? { bytes("lang", prefix: "xml") }

  private func value(_ name: StaticString, prefix: StaticString?) -> String? {
    bytes(name, prefix: prefix).map { String(decoding: $0, as: UTF8.self) }
  }

  private func bytes(_ name: StaticString, prefix: StaticString?) -> UnsafeBufferPointer<UInt8>? {
    guard let base else { return nil }
    for index in 0..<count {
      let entry = base + index * 5
      guard let localName = entry[0], let start = entry[3], let end = entry[4] else { continue }
      guard
        XMLEventParser.equal(
          UnsafeBufferPointer(start: localName, count: XMLEventParser.length(localName)), name)
      else { continue }
      if let prefix {
        guard let actual = entry[1],
          XMLEventParser.equal(
            UnsafeBufferPointer(start: actual, count: XMLEventParser.length(actual)), prefix)
        else { continue }
      } else if entry[1] != nil {
        continue
      }
      return UnsafeBufferPointer(start: start, count: end - start)
    }
    return nil
  }
}

/// Parses XML with libxml2's SAX2 interface and hands the events to an ``XMLEventHandler``,
/// safely: no network, no DTD loaded, no entity ever expanded (a declaration or a reference
/// to a declared entity stops the parse), libxml2's own size limits on (no `XML_PARSE_HUGE`).
enum XMLEventParser {
  /// libxml2's global set-up, done once per process before the first parse.
  private static let initialized: Bool = {
    xmlInitParser()
    return true
  }()

  /// Why a parse stopped before the end of the document.
  struct Failure: Error, Sendable {
    /// What went wrong.
    enum Kind: Sendable {
      /// Not well-formed XML.
      case malformed
      /// An entity declaration or a reference to an entity.
      case entity
    }

    var kind: Kind
    var message: String
    var line: Int
    var column: Int
  }

  private static let parseOptions = Int32(
    XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
      | XML_PARSE_BIG_LINES.rawValue)

  /// The per-parse state the C callbacks reach through the context's `_private` pointer.
  private final class State {
    let context: xmlParserCtxtPtr
    let handler: any XMLEventHandler
    var failure: Failure?

    init(context: xmlParserCtxtPtr, handler: any XMLEventHandler) {
      self.context = context
      self.handler = handler
    }

    var line: Int { Int(context.pointee.input?.pointee.line ?? 0) }

    func fail(_ kind: Failure.Kind, _ message: String) {
      if failure == nil {
        failure = Failure(kind: kind, message: message, line: line, column: 0)
      }
      xmlStopParser(context)
    }
  }

  /// Parses a document.
  ///
  /// - Parameters:
  ///   - bytes: The document.
  ///   - handler: Receives the events.
  /// - Returns: Why the parse failed, or `nil` when the document was read to its end (or
  ///   the handler stopped it).
  static func parse(_ bytes: UnsafeRawBufferPointer, handler: some XMLEventHandler) -> Failure? {
    _ = initialized
    guard bytes.count <= Int(Int32.max) else {
      return Failure(kind: .malformed, message: "the document is too large", line: 0, column: 0)
    }
    guard let context = xmlNewParserCtxt() else {
      return Failure(
        kind: .malformed, message: "libxml2 could not create a parser", line: 0, column: 0)
    }
    defer { xmlFreeParserCtxt(context) }
    let state = State(context: context, handler: handler)
    context.pointee.sax.pointee = makeHandler()
    context.pointee._private = Unmanaged.passUnretained(state).toOpaque()
    defer { context.pointee._private = nil }
    let document = withExtendedLifetime(state) {
      xmlCtxtReadMemory(
        context, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil,
        nil, parseOptions)
    }
    if let document { xmlFreeDoc(document) }
    if let failure = state.failure { return failure }
    if handler.shouldStop { return nil }
    if context.pointee.wellFormed == 0 {
      if let error = xmlCtxtGetLastError(context) {
        let text = error.pointee.message.map { String(cString: $0) } ?? "not well-formed"
        return Failure(
          kind: .malformed, message: trimmed(text), line: Int(error.pointee.line),
          column: Int(error.pointee.int2))
      }
      return Failure(kind: .malformed, message: "not well-formed", line: 0, column: 0)
    }
    return nil
  }

  private static func state(_ context: UnsafeMutableRawPointer?) -> State? {
    guard let context else { return nil }
    let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let state = parser.pointee._private else { return nil }
    return Unmanaged<State>.fromOpaque(state).takeUnretainedValue()
  }

  /// The SAX2 callbacks; everything not set (DTD loading, entity resolution) stays off.
  private static func makeHandler() -> xmlSAXHandler {
    var handler = xmlSAXHandler()
    handler.initialized = XML_SAX2_MAGIC
    handler.startElementNs = {
      context, localName, _, uri, _, _, attributeCount, _, attributes in
      guard let localName, let state = XMLEventParser.state(context) else { return }
      let name = XMLElementName(
        localName: UnsafeBufferPointer(
          start: localName, count: XMLEventParser.length(localName)),
        namespaceURI: uri.map { UnsafeBufferPointer(start: $0, count: XMLEventParser.length($0)) })
      let list = XMLAttributeList(base: attributes, count: Int(max(0, attributeCount)))
      state.handler.startElement(name, attributes: list, line: state.line)
      if state.handler.shouldStop { xmlStopParser(state.context) }
    }
    handler.endElementNs = { context, _, _, _ in
      guard let state = XMLEventParser.state(context) else { return }
      state.handler.endElement()
      if state.handler.shouldStop { xmlStopParser(state.context) }
    }
    let characters: charactersSAXFunc = { context, bytes, count in
      guard let bytes, count > 0, let state = XMLEventParser.state(context) else { return }
      state.handler.characters(UnsafeBufferPointer(start: bytes, count: Int(count)))
    }
    handler.characters = characters
    handler.cdataBlock = characters
    handler.entityDecl = { context, name, _, _, _, _ in
      guard let state = XMLEventParser.state(context) else { return }
      let entity = name.map { String(cString: $0) } ?? "?"
      state.fail(.entity, "the document declares the entity '\(entity)'; entities are refused")
    }
    handler.reference = { context, name in
      guard let state = XMLEventParser.state(context) else { return }
      let entity = name.map { String(cString: $0) } ?? "?"
      state.fail(.entity, "reference to the entity '&\(entity);'; entities are refused")
    }
    handler.serror = { context, error in
      guard let error, let state = XMLEventParser.state(context) else { return }
      guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue, state.failure == nil,
        error.pointee.code != Int32(XML_ERR_USER_STOP.rawValue)
      else { return }
      let text = error.pointee.message.map { String(cString: $0) } ?? "not well-formed"
      let isEntity =
        error.pointee.code == Int32(XML_ERR_UNDECLARED_ENTITY.rawValue)
        || error.pointee.code == Int32(XML_WAR_UNDECLARED_ENTITY.rawValue)
      state.failure = Failure(
        kind: isEntity ? .entity : .malformed, message: XMLEventParser.trimmed(text),
        line: Int(error.pointee.line), column: Int(error.pointee.int2))
      xmlStopParser(state.context)
    }
    return handler
  }

  static func length(_ string: UnsafePointer<UInt8>) -> Int {
    var count = 0
    while string[count] != 0 { count += 1 }
    return count
  }

  static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
    guard bytes.count == text.utf8CodeUnitCount else { return false }
    let other = text.utf8Start
    for index in 0..<bytes.count where bytes[index] != other[index] { return false }
    return true
  }

  static func trimmed(_ text: String) -> String {
    var slice = Substring(text)
    while let last = slice.last, last == "\n" || last == " " { slice = slice.dropLast() }
    return String(slice)
  }
}
