/// Reads a xar archive's table of contents before libarchive does, and refuses one in
/// which an entry names more than one hard-link target.
///
/// A xar entry is a hard link through its `<type link="…">` element: `original` or the
/// id of the entry it links to. libarchive 3.6 keeps the links in a list that an entry
/// with two such elements joins twice, which makes the list a loop it then walks forever
/// (bsdtar hangs the same way; libarchive 3.7.4 refuses such an entry). An entry has one
/// type, so a second link is refused here, as a table of contents declaring a DTD is
/// (no xar writer writes one, and its entities could spell elements this scan does not
/// see). The scan streams the decompressed table through a small tag reader, so its
/// memory does not grow with the table.
struct XarLinkCheck {
  private static let headerLength = 28
  /// Longer tags are refused: a xar writer's tags are a few dozen bytes.
  private static let maxTagLength = 1 << 16

  /// Whether bytes start a xar archive (`xar!`).
  ///
  /// - Parameter head: The first bytes.
  /// - Returns: `true` for a xar.
  static func startsLikeXar(_ head: [UInt8]) -> Bool { head.starts(with: Array("xar!".utf8)) }

  /// Checks a xar archive's table of contents.
  ///
  /// - Parameter file: The archive.
  /// - Throws: ``PackagingError`` (`corrupt-archive`) naming the entry with two links, a
  ///   DTD, or a table of contents Folio cannot decompress.
  static func check(_ file: ArchiveFile) throws {
    func corrupt(_ text: String) -> PackagingError {
      PackagingError(.corruptArchive, "'\(file.name)': \(text)")
    }
    guard let header = try file.bytes(at: 0, count: headerLength) else { return }
    let headerSize = Int64(header[4]) << 8 | Int64(header[5])
    var compressed: Int64 = 0
    for byte in header[8..<16] { compressed = compressed << 8 | Int64(byte) }
    // A zlib stream: its 2-byte header, raw DEFLATE, its 4-byte Adler-32.
    guard compressed > 6, compressed <= file.size - headerSize else {
      throw corrupt("its table of contents lies outside the file")
    }
    let raw = FileRangeByteSource(file, offset: headerSize + 2, length: compressed - 6)
    let decoded = try InflateByteSource(
      raw, format: .rawDeflate, context: "'\(file.name)': the table of contents")
    var scanner = Scanner()
    while let chunk = try decoded.next() {
      for byte in chunk {
        if let problem = scanner.take(byte) { throw corrupt(problem) }
      }
    }
  }

  /// A tag reader for the xar table of contents: tracks the open `<file>` elements and
  /// how many `link` attributes each one's `<type>` elements carry.
  private struct Scanner {
    private var inTag = false
    private var tag: [UInt8] = []
    private var quote: UInt8?
    /// For each open `<file>`: its id and the links seen.
    private var files: [(id: String, links: Int)] = []

    /// Takes one byte; returns what is wrong when a tag ends that breaks the rule.
    mutating func take(_ byte: UInt8) -> String? {
      guard inTag else {
        if byte == UInt8(ascii: "<") {
          inTag = true
          tag.removeAll(keepingCapacity: true)
        }
        return nil
      }
      if let open = quote {
        if byte == open { quote = nil }
        tag.append(byte)
      } else if byte == UInt8(ascii: ">") && !continuesPastBracket() {
        inTag = false
        return finish()
      } else {
        // A comment's or CDATA section's quotes are text, not attribute values.
        if (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")) && tag.first != 0x21 {
          quote = byte
        }
        tag.append(byte)
      }
      guard tag.count <= XarLinkCheck.maxTagLength else {
        return "its table of contents has a tag longer than \(XarLinkCheck.maxTagLength) bytes"
      }
      return nil
    }

    /// Whether a `>` is inside a comment or CDATA section that has not ended.
    private func continuesPastBracket() -> Bool {
      if tag.starts(with: Array("!--".utf8)) {
        return !(tag.count >= 5 && tag.suffix(2).elementsEqual("--".utf8))
      }
      if tag.starts(with: Array("![CDATA[".utf8)) {
        return !(tag.count >= 10 && tag.suffix(2).elementsEqual("]]".utf8))
      }
      return false
    }

    private mutating func finish() -> String? {
      guard let first = tag.first else { return nil }
      if first == UInt8(ascii: "!") {
        if tag.starts(with: Array("!--".utf8)) || tag.starts(with: Array("![CDATA[".utf8)) {
          return nil
        }
        return "its table of contents declares a DTD, which no xar writer writes"
      }
      if first == UInt8(ascii: "?") { return nil }
      let closing = first == UInt8(ascii: "/")
      let body = closing ? tag.dropFirst() : tag[...]
      let nameEnd =
        body.firstIndex { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x2F }
        ?? body.endIndex
      let name = Self.localName(body[body.startIndex..<nameEnd])
      let selfClosing = tag.last == UInt8(ascii: "/")
      if name.elementsEqual("file".utf8) {
        if closing {
          _ = files.popLast()
        } else if !selfClosing {
          files.append((Self.attribute("id", in: body[nameEnd...]) ?? "?", 0))
        }
      } else if name.elementsEqual("type".utf8), !closing, !files.isEmpty,
        Self.attribute("link", in: body[nameEnd...]) != nil
      {
        files[files.count - 1].links += 1
        if files[files.count - 1].links > 1 {
          return
            "entry id \(EntryName(bytes: Array(files[files.count - 1].id.utf8)).display) names more than one hard-link target in its table of contents"
        }
      }
      return nil
    }

    /// A name without its namespace prefix.
    private static func localName(_ name: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
      guard let colon = name.lastIndex(of: UInt8(ascii: ":")) else { return name }
      return name[(colon + 1)...]
    }

    /// The value of the attribute with local name `wanted`, if the tag has one.
    private static func attribute(_ wanted: String, in text: ArraySlice<UInt8>) -> String? {
      var at = text.startIndex
      while at < text.endIndex {
        while at < text.endIndex,
          text[at] == 0x20 || text[at] == 0x09 || text[at] == 0x0A
            || text[at] == 0x0D || text[at] == 0x2F
        {
          at += 1
        }
        let nameStart = at
        while at < text.endIndex, text[at] != UInt8(ascii: "="), text[at] != 0x20 { at += 1 }
        let name = localName(text[nameStart..<at])
        while at < text.endIndex, text[at] != UInt8(ascii: "\""), text[at] != UInt8(ascii: "'") {
          at += 1
        }
        guard at < text.endIndex else { return nil }
        let quote = text[at]
        let valueStart = at + 1
        at = valueStart
        while at < text.endIndex, text[at] != quote { at += 1 }
        if name.elementsEqual(wanted.utf8) {
          return String(decoding: text[valueStart..<min(at, text.endIndex)], as: UTF8.self)
        }
        at += 1
      }
      return nil
    }
  }
}
