/// The document element of an XML file: its namespace and local name, which the shared
/// MIME database's `root-XML` rules match (`http://www.w3.org/2000/svg` `svg`).
public struct XMLRootElement: Sendable, Hashable {
  /// The element's namespace URI, empty when it has none.
  public var namespaceURI: String
  /// The element's name without its prefix.
  public var localName: String

  /// Creates a root element description.
  ///
  /// - Parameters:
  ///   - namespaceURI: The namespace URI, empty for none.
  ///   - localName: The name without its prefix.
  public init(namespaceURI: String, localName: String) {
    self.namespaceURI = namespaceURI
    self.localName = localName
  }

  /// Finds the document element in the first bytes of a file.
  ///
  /// Skips a byte-order mark, the XML declaration, processing instructions, comments and a
  /// document type declaration (with its internal subset), then reads the first start tag
  /// and the namespace declarations on it. This is a scan, not a parse: it reads only as
  /// far as the start tag, and gives up (returns `nil`) on anything that is not XML before
  /// it, or when the prefix ends first. UTF-8 only (UTF-16 XML is rare; it yields `nil`).
  ///
  /// - Parameter bytes: The file's first bytes.
  /// - Returns: The element, or `nil` when none is found in the prefix.
  public static func find(in bytes: UnsafeRawBufferPointer) -> XMLRootElement? {
    var scanner = Scanner(bytes: bytes)
    if scanner.hasPrefix([0xEF, 0xBB, 0xBF]) { scanner.index += 3 }
    while true {
      scanner.skipWhitespace()
      guard scanner.peek() == UInt8(ascii: "<") else { return nil }
      if scanner.hasPrefix(Array("<?".utf8)) {
        guard scanner.skip(past: Array("?>".utf8)) else { return nil }
      } else if scanner.hasPrefix(Array("<!--".utf8)) {
        guard scanner.skip(past: Array("-->".utf8)) else { return nil }
      } else if scanner.hasPrefix(Array("<!".utf8)) {
        guard scanner.skipDeclaration() else { return nil }
      } else {
        scanner.index += 1
        return scanner.startTag()
      }
    }
  }

  private struct Scanner {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    func hasPrefix(_ prefix: [UInt8]) -> Bool {
      guard bytes.count - index >= prefix.count else { return false }
      for (offset, byte) in prefix.enumerated() where bytes[index + offset] != byte {
        return false
      }
      return true
    }

    static func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    mutating func skipWhitespace() {
      while let byte = peek(), Self.isSpace(byte) { index += 1 }
    }

    mutating func skip(past terminator: [UInt8]) -> Bool {
      while index < bytes.count {
        if hasPrefix(terminator) {
          index += terminator.count
          return true
        }
        index += 1
      }
      return false
    }

    /// Skips `<!DOCTYPE …>`, including a bracketed internal subset and quoted strings.
    mutating func skipDeclaration() -> Bool {
      var depth = 0
      var quote: UInt8?
      index += 2
      while let byte = peek() {
        index += 1
        if let open = quote {
          if byte == open { quote = nil }
          continue
        }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
        case UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "]"): depth -= 1
        case UInt8(ascii: ">") where depth <= 0: return true
        default: break
        }
      }
      return false
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
      !(isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
        || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "\"")
        || byte == UInt8(ascii: "'"))
    }

    mutating func name() -> String? {
      let start = index
      while let byte = peek(), Self.isNameByte(byte) { index += 1 }
      guard index > start else { return nil }
      return String(validating: bytes[start..<index], as: UTF8.self)
    }

    /// Reads the start tag after its `<`: the qualified name and the namespace declarations.
    mutating func startTag() -> XMLRootElement? {
      guard let qualified = name() else { return nil }
      var declarations: [String: String] = [:]
      while true {
        skipWhitespace()
        guard let byte = peek() else { return nil }
        if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") { break }
        guard let attribute = name() else { return nil }
        skipWhitespace()
        guard peek() == UInt8(ascii: "=") else { return nil }
        index += 1
        skipWhitespace()
        guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")
        else { return nil }
        index += 1
        let start = index
        while let byte = peek(), byte != quote { index += 1 }
        guard index < bytes.count,
          let value = String(validating: bytes[start..<index], as: UTF8.self)
        else { return nil }
        index += 1
        if attribute == "xmlns" {
          declarations[""] = value
        } else if attribute.hasPrefix("xmlns:") {
          declarations[String(attribute.dropFirst(6))] = value
        }
      }
      let parts = qualified.split(separator: ":", maxSplits: 1)
      let prefix = parts.count == 2 ? String(parts[0]) : ""
      let local = parts.count == 2 ? String(parts[1]) : qualified
      return XMLRootElement(namespaceURI: declarations[prefix] ?? "", localName: local)
    }
  }
}
