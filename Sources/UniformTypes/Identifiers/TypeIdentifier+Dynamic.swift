// Dynamic identifiers: the `dyn.` types Apple's frameworks make up for tags no
// declaration claims, so that every file has a type.
//
// The encoding follows Apple's: the tag specification is written as
// `?0=<conformance>:<tag class>=<tag>` and encoded with a 32-letter alphabet
// (`abcdefghkmnpqrstuvwxyz0123456789`, five bits a letter, most significant
// bit first, no padding) after `dyn.a`. Well-known tag classes and parents
// have one-character codes (`1` filename extension, `3` MIME type, `6`
// public.data, `E` public.directory, …). So `md` becomes
// `dyn.ah62d4rv4ge8043a`, the identifier macOS gives `.md` files when no
// Markdown type is declared. Folio lowercases case-insensitive tags first, so
// `README.MD` and `notes.md` get the same identifier, and escapes `:`, `=`
// and `\` in tags with a backslash.

extension TypeIdentifier {
  /// The 32 letters of the dynamic-identifier encoding, in value order.
  static let dynamicAlphabet = Array("abcdefghkmnpqrstuvwxyz0123456789".utf8)

  /// One-character codes for tag classes in a dynamic identifier.
  static let dynamicTagClassCodes: [(code: String, tagClass: TagClass)] = [
    ("1", .filenameExtension), ("2", .osType), ("3", .mimeType), ("4", .pasteboardType),
    ("5", TagClass("public.url-scheme")),
  ]

  /// One-character codes for parents in a dynamic identifier.
  static let dynamicParentCodes: [(code: String, identifier: TypeIdentifier)] = [
    ("6", .data), ("7", .text), ("8", .plainText), ("9", .utf16PlainText),
    ("A", "com.apple.traditional-mac-plain-text"), ("B", .image), ("C", "public.video"),
    ("D", .audio), ("E", .directory), ("F", .folder),
  ]

  /// The dynamic identifier for a tag no declaration claims.
  ///
  /// The result is the same on every run and every machine for the same input.
  ///
  /// - Parameters:
  ///   - tagClass: The tag's class, such as ``TagClass/filenameExtension``.
  ///   - tag: The tag (an extension without its dot, a MIME type).
  ///   - parent: The type it conforms to: ``data`` for files, ``directory`` for folders.
  /// - Returns: A `dyn.a…` identifier.
  package static func dynamic(
    tagClass: TagClass, tag: String, conformingTo parent: TypeIdentifier = .data
  ) -> TypeIdentifier {
    let parentCode =
      dynamicParentCodes.first { $0.identifier == parent }?.code ?? escapeDynamic(parent.rawValue)
    let classCode =
      dynamicTagClassCodes.first { $0.tagClass == tagClass }?.code
      ?? escapeDynamic(tagClass.identifier.rawValue)
    let folded = tagClass.isCaseInsensitive ? TypeIdentifier.foldCase(tag) : tag
    let specification = "?0=\(parentCode):\(classCode)=\(escapeDynamic(folded))"
    return TypeIdentifier("dyn.a" + encodeDynamic(Array(specification.utf8)))
  }

  /// What a dynamic identifier encodes, if it is one Folio can decode.
  ///
  /// - Returns: The parents and the tags (tag class → tags), or `nil` when this
  ///   is not a `dyn.a` identifier or does not decode.
  package var dynamicSpecification: (parents: [TypeIdentifier], tags: [TypeTag])? {
    guard key.hasPrefix("dyn.a"), let bytes = TypeIdentifier.decodeDynamic(key.dropFirst(5)),
      let text = String(validating: bytes, as: UTF8.self), text.hasPrefix("?")
    else { return nil }
    var parents: [TypeIdentifier] = []
    var tags: [TypeTag] = []
    for field in TypeIdentifier.splitUnescaped(Substring(text.dropFirst()), on: ":") {
      let parts = TypeIdentifier.splitUnescaped(field, on: "=")
      guard parts.count == 2 else { return nil }
      let name = TypeIdentifier.unescapeDynamic(parts[0])
      let value = TypeIdentifier.unescapeDynamic(parts[1])
      if name == "0" {
        parents.append(
          TypeIdentifier.dynamicParentCodes.first { $0.code == value }?.identifier
            ?? TypeIdentifier(value))
      } else {
        let tagClass =
          TypeIdentifier.dynamicTagClassCodes.first { $0.code == name }?.tagClass
          ?? TagClass(TypeIdentifier(name))
        tags.append(TypeTag(tagClass, value))
      }
    }
    return (parents, tags)
  }

  private static func escapeDynamic(_ text: String) -> String {
    var escaped = ""
    for character in text {
      if character == ":" || character == "=" || character == "\\" { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }

  private static func unescapeDynamic(_ text: Substring) -> String {
    var result = ""
    var escaping = false
    for character in text {
      if escaping {
        result.append(character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        result.append(character)
      }
    }
    return result
  }

  private static func splitUnescaped(_ text: Substring, on separator: Character) -> [Substring] {
    var parts: [Substring] = []
    var start = text.startIndex
    var index = text.startIndex
    var escaping = false
    while index < text.endIndex {
      let character = text[index]
      if escaping {
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == separator {
        parts.append(text[start..<index])
        start = text.index(after: index)
      }
      index = text.index(after: index)
    }
    parts.append(text[start..<text.endIndex])
    return parts
  }

  private static func encodeDynamic(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    for byte in bytes {
      buffer = (buffer << 8) | UInt32(byte)
      bits += 8
      while bits >= 5 {
        bits -= 5
        output.append(dynamicAlphabet[Int((buffer >> UInt32(bits)) & 0x1F)])
      }
    }
    if bits > 0 {
      output.append(dynamicAlphabet[Int((buffer << UInt32(5 - bits)) & 0x1F)])
    }
    return String(decoding: output, as: UTF8.self)
  }

  private static func decodeDynamic(_ text: Substring) -> [UInt8]? {
    var bytes: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    for letter in text.utf8 {
      guard let value = dynamicAlphabet.firstIndex(of: letter) else { return nil }
      buffer = (buffer << 5) | UInt32(value)
      bits += 5
      if bits >= 8 {
        bits -= 8
        bytes.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
      }
    }
    return bytes
  }
}
