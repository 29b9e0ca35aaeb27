internal import CLibXML2
import FolioSystem
import FoundationEssentials
import UniformTypes

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
          message: "not well-formed XML: \(text.trimming(while: \.isWhitespace))",
          line: Int(error.pointee.line), column: Int(error.pointee.int2))
      }
      throw LibXML.Problem(message: "not well-formed XML", line: 0, column: 0)
    }
    pointer = document
  }

  /// Takes ownership of a document built in memory.
  ///
  /// - Parameter pointer: A document nothing else frees.
  init(adopting pointer: xmlDocPtr) {
    self.pointer = pointer
  }

  deinit {
    xmlFreeDoc(pointer)
  }

  /// The parts of a property list whose failure a schema can be narrowed to: each top-level
  /// key among `keys` with its value, and each item of that value when it is an array.
  ///
  /// - Parameter keys: The top-level keys to look at.
  /// - Returns: Each such key, its line, and a document holding only it (and, per item, only
  ///   that item), to validate on its own.
  func parts(forKeys keys: Set<String>) -> [DocumentPart] {
    guard let root = xmlDocGetRootElement(pointer),
      let dict = Self.elements(under: root).first, Self.name(of: dict) == "dict"
    else { return [] }
    var parts: [DocumentPart] = []
    let children = Self.elements(under: dict)
    for (position, key) in children.enumerated() where Self.name(of: key) == "key" {
      let text = Self.text(of: key)
      guard keys.contains(text), position + 1 < children.count else { continue }
      let value = children[position + 1]
      var items: [DocumentPart.Item] = []
      if Self.name(of: value) == "array" {
        for (index, item) in Self.elements(under: value).enumerated() {
          items.append(
            DocumentPart.Item(
              index: index + 1, line: Int(xmlGetLineNo(item)),
              document: Self.document(key: key, value: value, onlyItem: item)))
        }
      }
      parts.append(
        DocumentPart(
          key: text, line: Int(xmlGetLineNo(key)),
          document: Self.document(key: key, value: value, onlyItem: nil), items: items))
    }
    return parts
  }

  /// One top-level key of a property list, as a document of its own.
  struct DocumentPart {
    /// One item of the key's array, as a document of its own.
    struct Item {
      var index: Int
      var line: Int
      var document: XMLDocumentHandle?
    }
    var key: String
    var line: Int
    var document: XMLDocumentHandle?
    var items: [Item]
  }

  /// `<plist><dict>KEY VALUE</dict></plist>`, the value's array holding only `onlyItem` if given.
  private static func document(key: xmlNodePtr, value: xmlNodePtr, onlyItem: xmlNodePtr?)
    -> XMLDocumentHandle?
  {
    guard let document = xmlNewDoc("1.0") else { return nil }
    let handle = XMLDocumentHandle(adopting: document)
    guard let plist = xmlNewDocNode(document, nil, "plist", nil) else { return nil }
    xmlDocSetRootElement(document, plist)
    guard let dict = xmlNewChild(plist, nil, "dict", nil),
      let keyCopy = xmlDocCopyNode(key, document, 1)
    else { return nil }
    xmlAddChild(dict, keyCopy)
    if let onlyItem {
      guard let array = xmlNewChild(dict, nil, "array", nil),
        let itemCopy = xmlDocCopyNode(onlyItem, document, 1)
      else { return nil }
      xmlAddChild(array, itemCopy)
    } else {
      guard let valueCopy = xmlDocCopyNode(value, document, 1) else { return nil }
      xmlAddChild(dict, valueCopy)
    }
    return handle
  }

  private static func elements(under node: xmlNodePtr) -> [xmlNodePtr] {
    var result: [xmlNodePtr] = []
    var child = node.pointee.children
    while let current = child {
      if current.pointee.type == XML_ELEMENT_NODE { result.append(current) }
      child = current.pointee.next
    }
    return result
  }

  private static func name(of node: xmlNodePtr) -> String? {
    node.pointee.name.map { String(cString: $0) }
  }

  private static func text(of element: xmlNodePtr) -> String {
    var text = ""
    var child = element.pointee.children
    while let node = child {
      if node.pointee.type == XML_TEXT_NODE || node.pointee.type == XML_CDATA_SECTION_NODE,
        let content = node.pointee.content
      {
        text += String(cString: content)
      }
      child = node.pointee.next
    }
    return text
  }
}
