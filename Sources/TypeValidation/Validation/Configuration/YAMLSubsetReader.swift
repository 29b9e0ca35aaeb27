import FolioSystem
import PropertyLists
import UniformTypes

/// Reads the small, strict subset of YAML that `.folio.yml` is written in, with a line and
/// column on every value.
///
/// The subset: a top-level block mapping of `key: value` lines; a value is a scalar, a flow
/// sequence of scalars on one line (`[a, "b"]`), or, after `key:` alone, an indented block
/// sequence of scalars (`- item`) or an indented block mapping of scalars (`NAME: value`).
/// Scalars are plain (`true`/`false` are booleans, decimal digits integers, anything else a
/// string), single-quoted (`''` for a quote) or double-quoted (`\"`, `\\`, `\n`, `\t`,
/// `\uXXXX`). `#` starts a comment at the start of a line or after a space. An optional `---`
/// line may open the document. Everything else YAML has (anchors, aliases, tags, block
/// scalars, flow mappings, tabs in indentation, deeper nesting, repeated keys) is refused
/// with its line and column, never guessed at.
struct YAMLSubsetReader {
  private let file: String
  private var lines: [(number: Int, text: Substring)] = []

  private init(text: String, file: String) {
    self.file = file
    var number = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      number += 1
      var line = line
      if line.last == "\r" { line.removeLast() }
      lines.append((number, line))
    }
  }

  /// Reads a document.
  ///
  /// - Parameters:
  ///   - text: The YAML text.
  ///   - file: The name used in locations.
  /// - Returns: A dictionary (an empty document is an empty dictionary).
  /// - Throws: ``UniformTypeError`` with `invalid-configuration`, located where the subset ends.
  static func read(_ text: String, file: String) throws -> PropertyListValue {
    var reader = YAMLSubsetReader(text: text, file: file)
    return try reader.document()
  }

  private mutating func document() throws -> PropertyListValue {
    var entries: [PropertyListValue.DictionaryEntry] = []
    var seen: Set<String> = []
    var index = 0
    var first = true
    while index < lines.count {
      let (number, raw) = lines[index]
      index += 1
      let line = try stripComment(raw, line: number)
      if line.allSatisfy({ $0 == " " }) { continue }
      if first && line == "---" {
        first = false
        continue
      }
      first = false
      if line.first == " " {
        throw error("unexpected indentation; top-level keys start in column 1", number, 1)
      }
      let (key, keyColumn, rest, restColumn) = try keyAndRest(line, line: number, column: 1)
      guard seen.insert(key).inserted else {
        throw error("the key \(DiagnosticText.quoted(key)) is given twice", number, keyColumn)
      }
      let keyLocation = location(number, keyColumn)
      let value: PropertyListValue
      if rest.isEmpty {
        value = try block(after: &index, parentLine: number, keyLocation: keyLocation)
      } else {
        value = try inlineValue(rest, line: number, column: restColumn)
      }
      entries.append(.init(key: key, keyLocation: keyLocation, value: value))
    }
    return PropertyListValue(.dictionary(entries), location: location(1, 1))
  }

  /// The indented lines after `key:`: a block sequence or a block mapping of scalars.
  private mutating func block(
    after index: inout Int, parentLine: Int, keyLocation: SourceLocation
  ) throws -> PropertyListValue {
    var items: [PropertyListValue] = []
    var entries: [PropertyListValue.DictionaryEntry] = []
    var seen: Set<String> = []
    var indent: Int?
    var isSequence: Bool?
    while index < lines.count {
      let (number, raw) = lines[index]
      let line = try stripComment(raw, line: number)
      if line.allSatisfy({ $0 == " " }) {
        index += 1
        continue
      }
      let spaces = line.prefix { $0 == " " }.count
      if spaces == 0 { break }
      if let indent, spaces != indent {
        throw error(
          "inconsistent indentation (\(spaces) spaces where the block uses \(indent))", number,
          spaces + 1)
      }
      indent = spaces
      index += 1
      let content = line.dropFirst(spaces)
      let column = spaces + 1
      let startsItem = content == "-" || content.hasPrefix("- ")
      if let isSequence, isSequence != startsItem {
        throw error("a block mixes '- ' items and 'key:' entries", number, column)
      }
      isSequence = startsItem
      if startsItem {
        let item = content.dropFirst().drop { $0 == " " }
        guard !item.isEmpty else { throw error("an empty '-' item", number, column) }
        let itemColumn = column + (content.count - item.count)
        let value = try scalarOrFlow(item, line: number, column: itemColumn)
        if case .array = value.content {
          throw error(
            "a sequence inside a sequence is not in Folio's YAML subset", number, itemColumn)
        }
        items.append(value)
      } else {
        let (key, keyColumn, rest, restColumn) = try keyAndRest(
          content, line: number, column: column)
        guard !rest.isEmpty else {
          throw error(
            "a mapping nested this deep is not in Folio's YAML subset; give \(DiagnosticText.quoted(key)) a value",
            number, keyColumn)
        }
        guard seen.insert(key).inserted else {
          throw error("the key \(DiagnosticText.quoted(key)) is given twice", number, keyColumn)
        }
        let value = try scalar(rest, line: number, column: restColumn)
        entries.append(.init(key: key, keyLocation: location(number, keyColumn), value: value))
      }
    }
    switch isSequence {
    case true?: return PropertyListValue(.array(items), location: keyLocation)
    case false?: return PropertyListValue(.dictionary(entries), location: keyLocation)
    case nil:
      // `key:` with nothing after it is an empty value, as YAML reads it (null): refused.
      throw error("the key has no value", parentLine, keyLocation.column ?? 1)
    }
  }

  private func inlineValue(_ text: Substring, line: Int, column: Int) throws -> PropertyListValue {
    try scalarOrFlow(text, line: line, column: column)
  }

  private func scalarOrFlow(_ text: Substring, line: Int, column: Int) throws -> PropertyListValue {
    guard text.first == "[" else { return try scalar(text, line: line, column: column) }
    guard text.last == "]" else {
      throw error("a flow sequence must end with ']' on the same line", line, column + text.count)
    }
    var items: [PropertyListValue] = []
    var cursor = text.index(after: text.startIndex)
    let end = text.index(before: text.endIndex)
    while cursor < end {
      while cursor < end, text[cursor] == " " { cursor = text.index(after: cursor) }
      if cursor == end { break }
      let itemStart = cursor
      if text[cursor] == "\"" || text[cursor] == "'" {
        let quote = text[cursor]
        cursor = text.index(after: cursor)
        while cursor < end {
          if text[cursor] == "\\" && quote == "\"" {
            cursor = text.index(after: cursor)
            if cursor < end { cursor = text.index(after: cursor) }
            continue
          }
          if text[cursor] == quote {
            let next = text.index(after: cursor)
            if quote == "'", next < end, text[next] == "'" {
              cursor = text.index(after: next)
              continue
            }
            cursor = next
            break
          }
          cursor = text.index(after: cursor)
        }
      } else {
        while cursor < end, text[cursor] != "," { cursor = text.index(after: cursor) }
      }
      var item = text[itemStart..<cursor]
      while item.last == " " { item.removeLast() }
      let itemColumn = column + text.distance(from: text.startIndex, to: itemStart)
      guard !item.isEmpty else {
        throw error("an empty item in the flow sequence", line, itemColumn)
      }
      items.append(try scalar(item, line: line, column: itemColumn))
      while cursor < end, text[cursor] == " " { cursor = text.index(after: cursor) }
      if cursor < end {
        guard text[cursor] == "," else {
          throw error(
            "expected ',' or ']' in the flow sequence", line,
            column + text.distance(from: text.startIndex, to: cursor))
        }
        cursor = text.index(after: cursor)
      }
    }
    return PropertyListValue(.array(items), location: location(line, column))
  }

  private func scalar(_ text: Substring, line: Int, column: Int) throws -> PropertyListValue {
    let here = location(line, column)
    guard let first = text.first else { throw error("a value is missing", line, column) }
    switch first {
    case "\"":
      return PropertyListValue(
        .string(try doubleQuoted(text, line: line, column: column)), location: here)
    case "'":
      return PropertyListValue(
        .string(try singleQuoted(text, line: line, column: column)), location: here)
    case "&", "*", "!", "|", ">", "{", "[", "]", "}", "%", "@", "`", "?":
      throw error(
        "\(DiagnosticText.quoted(String(first))) starts YAML that is not in Folio's subset; quote the value",
        line, column)
    case "-" where text == "-" || text.hasPrefix("- "):
      throw error("a '- ' item must be on its own indented line", line, column)
    default:
      break
    }
    if text.contains(": ") || text.hasSuffix(":") {
      throw error("a plain value may not hold ': '; quote it", line, column)
    }
    switch text {
    case "true": return PropertyListValue(.boolean(true), location: here)
    case "false": return PropertyListValue(.boolean(false), location: here)
    case "null", "~", "yes", "no", "on", "off", "True", "False", "Yes", "No":
      throw error(
        "\(DiagnosticText.quoted(String(text))) means different things to different YAML readers; write true or false, or quote it",
        line, column)
    default:
      if text.allSatisfy(\.isNumber), text.allSatisfy(\.isASCII), let number = Int64(text) {
        return PropertyListValue(.integer(number), location: here)
      }
      return PropertyListValue(.string(String(text)), location: here)
    }
  }

  private func singleQuoted(_ text: Substring, line: Int, column: Int) throws -> String {
    guard text.count >= 2, text.last == "'" else {
      throw error("the quoted value has no closing quote on this line", line, column)
    }
    let body = text.dropFirst().dropLast()
    var result = ""
    var index = body.startIndex
    while index < body.endIndex {
      if body[index] == "'" {
        let next = body.index(after: index)
        guard next < body.endIndex, body[next] == "'" else {
          throw error("a quote inside a single-quoted value is written ''", line, column)
        }
        result.append("'")
        index = body.index(after: next)
        continue
      }
      result.append(body[index])
      index = body.index(after: index)
    }
    return result
  }

  private func doubleQuoted(_ text: Substring, line: Int, column: Int) throws -> String {
    var result = ""
    var index = text.index(after: text.startIndex)
    while index < text.endIndex {
      let character = text[index]
      if character == "\"" {
        guard text.index(after: index) == text.endIndex else {
          throw error(
            "text after the closing quote", line,
            column + text.distance(from: text.startIndex, to: index) + 1)
        }
        return result
      }
      if character == "\\" {
        index = text.index(after: index)
        guard index < text.endIndex else { break }
        switch text[index] {
        case "\"": result.append("\"")
        case "\\": result.append("\\")
        case "/": result.append("/")
        case "n": result.append("\n")
        case "t": result.append("\t")
        case "u":
          let digits = text[text.index(after: index)...].prefix(4)
          guard digits.count == 4, let code = UInt32(digits, radix: 16),
            let scalar = Unicode.Scalar(code)
          else { throw error("\\u needs four hex digits of a Unicode scalar", line, column) }
          result.unicodeScalars.append(scalar)
          index = text.index(index, offsetBy: 4)
        default:
          throw error(
            "unknown escape '\\\(DiagnosticText.escaped(String(text[index])))'", line,
            column + text.distance(from: text.startIndex, to: index) - 1)
        }
        index = text.index(after: index)
        continue
      }
      result.append(character)
      index = text.index(after: index)
    }
    throw error("the quoted value has no closing quote on this line", line, column)
  }

  /// `key: rest` → the key, its column, the rest after `: ` and the rest's column.
  private func keyAndRest(_ line: Substring, line number: Int, column: Int) throws -> (
    String, Int, Substring, Int
  ) {
    if line.first == "\"" || line.first == "'" {
      let quote = line.first!
      guard let close = line.dropFirst().firstIndex(of: quote) else {
        throw error("the quoted key has no closing quote", number, column)
      }
      let keyText = line[...close]
      let key =
        quote == "\""
        ? try doubleQuoted(keyText, line: number, column: column)
        : try singleQuoted(keyText, line: number, column: column)
      let after = line[line.index(after: close)...]
      guard after.first == ":" else {
        throw error("expected ':' after the key", number, column + keyText.count)
      }
      let rest = after.dropFirst().drop { $0 == " " }
      return (key, column, rest, column + (line.count - rest.count))
    }
    guard let colon = line.firstIndex(of: ":") else {
      throw error("expected 'key: value'", number, column)
    }
    let key = line[..<colon]
    let afterColon = line[line.index(after: colon)...]
    guard afterColon.isEmpty || afterColon.first == " " else {
      throw error("expected a space after ':'", number, column + key.count + 1)
    }
    guard !key.isEmpty,
      key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
    else {
      throw error(
        "the key \(DiagnosticText.quoted(String(key))) is not a plain name; quote it", number,
        column)
    }
    let rest = afterColon.drop { $0 == " " }
    return (String(key), column, rest, column + (line.count - rest.count))
  }

  /// The line without its comment and trailing spaces; tabs are refused.
  private func stripComment(_ line: Substring, line number: Int) throws -> Substring {
    var inSingle = false
    var inDouble = false
    var previous: Character = " "
    var end = line.endIndex
    var column = 0
    for index in line.indices {
      column += 1
      let character = line[index]
      if character == "\t" {
        throw error("a tab; Folio's YAML subset indents and separates with spaces", number, column)
      }
      if character == "'" && !inDouble { inSingle.toggle() }
      if character == "\"" && !inSingle && previous != "\\" { inDouble.toggle() }
      if character == "#" && !inSingle && !inDouble && previous == " " {
        end = index
        break
      }
      previous = character
    }
    var result = line[..<end]
    while result.last == " " { result.removeLast() }
    return result
  }

  private func location(_ line: Int, _ column: Int) -> SourceLocation {
    SourceLocation(file: file, line: line, column: column)
  }

  private func error(_ message: String, _ line: Int, _ column: Int) -> UniformTypeError {
    UniformTypeError(
      .invalidConfiguration, message,
      location: SourceLocation(file: file, line: line, column: column))
  }
}
