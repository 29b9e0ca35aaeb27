internal import CLibXML2
import FolioSystem

/// Parses XML property lists with libxml2's SAX2 interface, safely.
///
/// Safety is by construction: the network is off (`XML_PARSE_NONET`), no DTD
/// is loaded or validated (no external-subset or entity-resolution callbacks),
/// entities are never substituted (no `XML_PARSE_NOENT`), and the first entity
/// declaration stops the parse with an error naming it, so billion-laughs input
/// ends at its first line. libxml2's own limits stay on (no `XML_PARSE_HUGE`).
enum XMLPropertyListParser {
  /// The parser options: no network, no messages on stderr, the encoding already settled by Folio.
  private static let parseOptions = Int32(
    XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
      | XML_PARSE_IGNORE_ENC.rawValue)

  /// The per-parse state the C callbacks reach through the context's `_private` pointer.
  fileprivate final class State {
    let context: XMLParserContextHandle
    let builder: XMLPropertyListBuilder
    var firstError: LibXMLStatus.Failure?
    var firstErrorLocation: SourceLocation?

    init(context: XMLParserContextHandle, builder: XMLPropertyListBuilder) {
      self.context = context
      self.builder = builder
    }

    /// Stops libxml2 once the builder has found an error.
    func stopIfFailed() {
      if builder.failure != nil { context.stop() }
    }
  }

  /// Parses UTF-8 XML.
  ///
  /// - Parameters:
  ///   - bytes: The document as UTF-8, without a byte order mark.
  ///   - file: The name used in locations.
  ///   - options: Depth limit.
  /// - Returns: The document.
  /// - Throws: ``PropertyListError`` naming what is wrong and where.
  static func parse(
    utf8 bytes: UnsafeBufferPointer<UInt8>, file: String, options: PropertyListReadOptions
  ) throws -> PropertyListDocument {
    guard let base = bytes.baseAddress, bytes.count > 0 else {
      throw PropertyListError(
        .emptyInput, "the file is empty", location: SourceLocation(file: file))
    }
    guard bytes.count <= Int(Int32.max) else {
      throw PropertyListError(.inputTooLarge, "the file is too large for the XML reader")
    }
    let context = try XMLParserContextHandle()
    let builder = XMLPropertyListBuilder(
      bytes: bytes, file: file, maximumDepth: options.maximumDepth,
      maximumValueCount: options.maximumValueCount)
    let state = State(context: context, builder: builder)
    context.pointer.pointee.sax.pointee = makeHandler()
    context.pointer.pointee._private = Unmanaged.passUnretained(state).toOpaque()
    defer { context.pointer.pointee._private = nil }

    let document = withExtendedLifetime(state) {
      base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
        xmlCtxtReadMemory(context.pointer, characters, Int32(bytes.count), nil, nil, parseOptions)
      }
    }
    if let document { xmlFreeDoc(document) }

    if let failure = builder.failure { throw failure }
    try LibXMLStatus.check(
      context, firstError: state.firstError,
      location: state.firstErrorLocation
        ?? state.firstError.map { SourceLocation(file: file, line: $0.line, column: $0.column) })
    guard let root = builder.root else {
      throw PropertyListError(
        .missingRoot, "the document holds no property list value",
        location: SourceLocation(file: file))
    }
    // Warnings are found as dictionaries close; report them in document order.
    let diagnostics =
      (builder.diagnostics + builder.duplicateKeys.kept).sorted {
        ($0.location?.line ?? 0, $0.location?.column ?? 0)
          < ($1.location?.line ?? 0, $1.location?.column ?? 0)
      } + builder.duplicateKeys.diagnostics(file: file).dropFirst(builder.duplicateKeys.kept.count)
    return PropertyListDocument(root: root, format: .xml, diagnostics: diagnostics)
  }

  fileprivate static func state(_ context: UnsafeMutableRawPointer?) -> State? {
    guard let context else { return nil }
    let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let state = parser.pointee._private else { return nil }
    return Unmanaged<State>.fromOpaque(state).takeUnretainedValue()
  }

  /// Runs `body` with the parse state without retaining it (the parse keeps it alive).
  @inline(__always)
  fileprivate static func withState(
    _ context: UnsafeMutableRawPointer?, _ body: (State) -> Void
  ) {
    guard let context else { return }
    let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let state = parser.pointee._private else { return }
    Unmanaged<State>.fromOpaque(state)._withUnsafeGuaranteedRef(body)
  }

  fileprivate static func length(_ string: UnsafePointer<xmlChar>) -> Int {
    var count = 0
    while string[count] != 0 { count += 1 }
    return count
  }

  /// The SAX2 callbacks; everything not listed (DTD loading, entity resolution) stays off.
  private static func makeHandler() -> xmlSAXHandler {
    var handler = xmlSAXHandler()
    handler.initialized = XML_SAX2_MAGIC

    handler.startElementNs = { context, localName, prefix, namespace, _, _, _, _, _ in
      guard let localName else { return }
      XMLPropertyListParser.withState(context) { state in
        // The cursor sits just past the attributes; the tag's `<` is the nearest one before it.
        let input = state.context.pointer.pointee.input!
        var cursor = input.pointee.cur!
        let base = input.pointee.base!
        while cursor > base && cursor.pointee != UInt8(ascii: "<") { cursor -= 1 }
        let offset = Int(input.pointee.consumed) + (cursor - base)
        state.builder.startElement(
          UnsafeBufferPointer(start: localName, count: XMLPropertyListParser.length(localName)),
          prefix: prefix.map {
            UnsafeBufferPointer(start: $0, count: XMLPropertyListParser.length($0))
          },
          namespace: namespace.map { String(cString: $0) }, offset: offset)
        state.stopIfFailed()
      }
    }
    handler.endElementNs = { context, _, _, _ in
      XMLPropertyListParser.withState(context) { state in
        state.builder.endElement()
        state.stopIfFailed()
      }
    }
    let characters: charactersSAXFunc = { context, bytes, count in
      guard let bytes, count > 0 else { return }
      XMLPropertyListParser.withState(context) { state in
        let offset =
          state.context.offset(of: bytes) ?? max(0, state.context.cursorOffset - Int(count))
        state.builder.characters(
          UnsafeBufferPointer(start: bytes, count: Int(count)), offset: offset)
        state.stopIfFailed()
      }
    }
    handler.characters = characters
    handler.ignorableWhitespace = characters
    handler.cdataBlock = { context, bytes, count in
      guard let state = XMLPropertyListParser.state(context), let bytes, count > 0 else { return }
      let offset = max(0, state.context.cursorOffset - Int(count) - 3)
      state.builder.cdata(UnsafeBufferPointer(start: bytes, count: Int(count)), offset: offset)
      state.stopIfFailed()
    }
    handler.comment = { context, _ in
      guard let state = XMLPropertyListParser.state(context) else { return }
      state.builder.markup("comment")
      state.stopIfFailed()
    }
    handler.processingInstruction = { context, _, _ in
      guard let state = XMLPropertyListParser.state(context) else { return }
      state.builder.markup("processing instruction")
      state.stopIfFailed()
    }
    handler.entityDecl = { context, name, _, _, _, _ in
      guard let state = XMLPropertyListParser.state(context) else { return }
      let entity = name.map { String(cString: $0) } ?? "?"
      state.builder.fail(
        .entityDeclaration,
        "the document declares the entity '\(entity)'; property lists may not declare entities",
        atOffset: state.context.cursorOffset)
      state.context.stop()
    }
    handler.reference = { context, name in
      guard let state = XMLPropertyListParser.state(context) else { return }
      let entity = name.map { String(cString: $0) } ?? "?"
      state.builder.fail(
        .undefinedEntity,
        "reference to the undefined entity '&\(entity);' (only &lt; &gt; &amp; &apos; &quot; and character references are allowed)",
        atOffset: max(state.context.cursorOffset, state.builder.furthestOffset))
      state.context.stop()
    }
    handler.serror = { context, error in
      guard let error, let state = XMLPropertyListParser.state(context) else { return }
      guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue, state.firstError == nil else {
        return
      }
      if error.pointee.code == Int32(XML_ERR_USER_STOP.rawValue) { return }
      let failure = LibXMLStatus.failure(from: UnsafePointer(error))
      state.firstError = failure
      let offset = state.context.cursorOffset
      if state.context.isReadingDocument, offset >= state.builder.furthestOffset {
        state.firstErrorLocation = state.builder.location(at: offset)
      }
      // An undeclared entity is only a warning to libxml2 when there is a DTD; Folio refuses it.
      if error.pointee.code == Int32(XML_ERR_UNDECLARED_ENTITY.rawValue)
        || error.pointee.code == Int32(XML_WAR_UNDECLARED_ENTITY.rawValue)
      {
        state.context.stop()
      }
    }
    return handler
  }
}
