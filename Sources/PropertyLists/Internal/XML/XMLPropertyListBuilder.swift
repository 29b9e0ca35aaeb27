import Foundation

/// Builds a ``PropertyListValue`` tree from XML parse events and checks the plist grammar.
///
/// The libxml2 layer feeds it element starts and ends (with the byte offset of
/// each element's `<`), text and CDATA; the builder turns offsets into lines
/// and columns, enforces Apple's plist vocabulary and nesting, and records the
/// first error. It never sees a C type.
final class XMLPropertyListBuilder {
  /// The elements of Apple's plist vocabulary.
  enum Element: Equatable {
    case plist, dict, array, key, string, integer, real, `true`, `false`, date, data

    /// Recognises an element name.
    init?(name: UnsafeBufferPointer<UInt8>) {
      func equals(_ word: StaticString) -> Bool {
        word.utf8CodeUnitCount == name.count
          && memcmp(word.utf8Start, name.baseAddress!, name.count) == 0
      }
      switch name.count {
      case 3:
        if equals("key") { self = .key } else { return nil }
      case 4:
        if equals("dict") {
          self = .dict
        } else if equals("real") {
          self = .real
        } else if equals("true") {
          self = .true
        } else if equals("date") {
          self = .date
        } else if equals("data") {
          self = .data
        } else {
          return nil
        }
      case 5:
        if equals("plist") {
          self = .plist
        } else if equals("array") {
          self = .array
        } else if equals("false") {
          self = .false
        } else {
          return nil
        }
      case 6:
        if equals("string") { self = .string } else { return nil }
      case 7:
        if equals("integer") { self = .integer } else { return nil }
      default:
        return nil
      }
    }

    var name: String {
      switch self {
      case .plist: "plist"
      case .dict: "dict"
      case .array: "array"
      case .key: "key"
      case .string: "string"
      case .integer: "integer"
      case .real: "real"
      case .true: "true"
      case .false: "false"
      case .date: "date"
      case .data: "data"
      }
    }

    var isContainer: Bool { self == .dict || self == .array }
    var holdsText: Bool { !isContainer && self != .plist }
  }

  private struct Frame {
    var element: Element
    var location: SourceLocation
    var items: [PropertyListValue] = []
    var entries: [PropertyListValue.DictionaryEntry] = []
    var pendingKey: String?
    var pendingKeyLocation: SourceLocation?
    var firstKeyLocations: [String: SourceLocation] = [:]
  }

  private let file: String
  private let maximumDepth: Int
  private var tracker: TextPositionTracker
  private var stack: [Frame] = []
  private var text: [UInt8] = []
  private var containerDepth = 0
  /// Open elements outside the vocabulary are refused at once, so none is ever on the stack.
  private(set) var root: PropertyListValue?
  /// The first error found; the parser stops at it.
  private(set) var failure: PropertyListError?
  /// Warnings such as duplicate keys.
  private(set) var diagnostics: [Diagnostic] = []

  /// Creates a builder over the UTF-8 bytes being parsed (which must outlive it).
  init(bytes: UnsafeBufferPointer<UInt8>, file: String, maximumDepth: Int) {
    self.file = file
    self.maximumDepth = maximumDepth
    self.tracker = TextPositionTracker(bytes: bytes)
  }

  /// The largest offset any event has reported so far.
  private(set) var furthestOffset = 0

  /// The source location of a byte offset.
  func location(at offset: Int) -> SourceLocation {
    furthestOffset = max(furthestOffset, offset)
    let position = tracker.position(at: offset)
    return SourceLocation(file: file, line: position.line, column: position.column)
  }

  /// Records an error unless one is already recorded.
  func fail(_ code: PropertyListError.Code, _ message: String, at location: SourceLocation?) {
    guard failure == nil else { return }
    failure = PropertyListError(code, message, location: location)
  }

  /// Records an error at a byte offset.
  func fail(_ code: PropertyListError.Code, _ message: String, atOffset offset: Int) {
    guard failure == nil else { return }
    fail(code, message, at: location(at: offset))
  }

  // MARK: Events

  /// An element starts; `offset` is the byte offset of its `<`.
  func startElement(_ name: UnsafeBufferPointer<UInt8>, prefixed: Bool, offset: Int) {
    let here = location(at: offset)
    guard !prefixed, let element = Element(name: name) else {
      let shown = String(decoding: name, as: UTF8.self)
      fail(
        .unknownElement,
        "unknown element <\(prefixed ? "…:" : "")\(shown)>; expected one of plist, dict, key, array, string, integer, real, true, false, date, data",
        at: here)
      return
    }
    if let parent = stack.last {
      switch parent.element {
      case .dict:
        if element == .key {
          if let key = parent.pendingKey {
            fail(
              .missingValue, "<key> '\(Self.shown(key))' has no value",
              at: parent.pendingKeyLocation)
            return
          }
        } else if parent.pendingKey == nil {
          fail(.missingKey, "expected <key> in <dict>, found <\(element.name)>", at: here)
          return
        }
      case .array, .plist:
        if element == .key || element == .plist {
          fail(
            .unexpectedElement, "unexpected <\(element.name)> inside <\(parent.element.name)>",
            at: here)
          return
        }
        if parent.element == .plist && !parent.items.isEmpty {
          fail(
            .unexpectedElement,
            "<plist> holds more than one value; found a second one, <\(element.name)>", at: here)
          return
        }
      default:
        fail(
          .unexpectedElement,
          "unexpected element <\(element.name)> inside <\(parent.element.name)>", at: here)
        return
      }
    } else if element == .key {
      fail(.unexpectedElement, "unexpected <key> outside a <dict>", at: here)
      return
    }
    if element.isContainer {
      containerDepth += 1
      if containerDepth > maximumDepth {
        fail(.tooDeep, "containers nest deeper than the limit of \(maximumDepth) levels", at: here)
        return
      }
    }
    if element.holdsText { text.removeAll(keepingCapacity: true) }
    stack.append(Frame(element: element, location: here))
  }

  /// The current element ends.
  func endElement() {
    guard failure == nil, var frame = stack.popLast() else { return }
    let value: PropertyListValue
    switch frame.element {
    case .plist:
      guard let only = frame.items.first else {
        fail(.missingRoot, "<plist> holds no value", at: frame.location)
        return
      }
      value = only
    case .dict:
      containerDepth -= 1
      if let key = frame.pendingKey {
        fail(.missingValue, "<key> '\(Self.shown(key))' has no value", at: frame.pendingKeyLocation)
        return
      }
      frame.firstKeyLocations = [:]
      value = PropertyListValue(.dictionary(frame.entries), location: frame.location)
    case .array:
      containerDepth -= 1
      value = PropertyListValue(.array(frame.items), location: frame.location)
    case .key:
      guard let string = decodedText(frame) else { return }
      let index = stack.count - 1
      stack[index].pendingKey = string
      stack[index].pendingKeyLocation = frame.location
      return
    default:
      guard let leaf = leafValue(frame) else { return }
      value = leaf
    }
    attach(value)
  }

  /// Character data (text, or whitespace between elements) at a byte offset.
  func characters(_ chunk: UnsafeBufferPointer<UInt8>, offset: Int) {
    guard failure == nil else { return }
    if let top = stack.last, top.element.holdsText {
      text.append(contentsOf: chunk)
      return
    }
    guard let first = chunk.firstIndex(where: { !PropertyListScalarSyntax.isWhitespace($0) }) else {
      return
    }
    let stray = String(decoding: chunk[first...], as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let container = stack.last.map { "<\($0.element.name)>" } ?? "the document"
    fail(
      .unexpectedText, "unexpected text '\(Self.shown(stray))' in \(container)",
      atOffset: offset + first)
  }

  // MARK: Values

  private func attach(_ value: PropertyListValue) {
    guard !stack.isEmpty else {
      root = value
      return
    }
    let index = stack.count - 1
    switch stack[index].element {
    case .dict:
      guard let key = stack[index].pendingKey else { return }
      let keyLocation = stack[index].pendingKeyLocation
      if let first = stack[index].firstKeyLocations[key] {
        let earlier = first.line.map { " (first at line \($0))" } ?? ""
        diagnostics.append(
          Diagnostic(
            severity: .warning, code: Diagnostic.duplicateKeyCode,
            message:
              "key '\(Self.shown(key))' repeats in this <dict>\(earlier); the last value wins",
            location: keyLocation, hint: "remove one of the entries"))
      } else if let keyLocation {
        stack[index].firstKeyLocations[key] = keyLocation
      }
      stack[index].entries.append(.init(key: key, keyLocation: keyLocation, value: value))
      stack[index].pendingKey = nil
      stack[index].pendingKeyLocation = nil
    default:
      stack[index].items.append(value)
    }
  }

  private func decodedText(_ frame: Frame) -> String? {
    String(validating: text, as: UTF8.self)
      ?? {
        fail(
          .invalidString, "<\(frame.element.name)> holds text that is not valid UTF-8",
          at: frame.location)
        return nil
      }()
  }

  private func leafValue(_ frame: Frame) -> PropertyListValue? {
    let content: PropertyListValue.Content
    let body = text[...]
    switch frame.element {
    case .string:
      guard let string = decodedText(frame) else { return nil }
      content = .string(string)
    case .integer:
      switch PropertyListScalarSyntax.integer(body) {
      case .signed(let value): content = .integer(value)
      case .unsigned(let value): content = .unsignedInteger(value)
      case nil:
        let shown = Self.shown(String(decoding: body, as: UTF8.self))
        fail(.invalidInteger, "<integer> '\(shown)' is not a 64-bit integer", at: frame.location)
        return nil
      }
    case .real:
      guard let value = PropertyListScalarSyntax.real(body) else {
        let shown = Self.shown(String(decoding: body, as: UTF8.self))
        fail(.invalidReal, "<real> '\(shown)' is not a number", at: frame.location)
        return nil
      }
      content = .real(value)
    case .date:
      guard let value = PropertyListScalarSyntax.date(body) else {
        let shown = Self.shown(String(decoding: body, as: UTF8.self))
        fail(
          .invalidDate, "<date> '\(shown)' is not a date of the form YYYY-MM-DDTHH:MM:SSZ",
          at: frame.location)
        return nil
      }
      content = .date(value)
    case .data:
      switch PropertyListScalarSyntax.base64(body) {
      case .success(let data): content = .data(data)
      case .failure(let failure):
        let what =
          failure.index < body.endIndex
          ? "unexpected character '\(String(decoding: body[failure.index...].prefix(1), as: UTF8.self))'"
          : "it ends in the middle of a byte"
        fail(.invalidData, "<data> is not valid base64: \(what)", at: frame.location)
        return nil
      }
    case .true, .false:
      guard PropertyListScalarSyntax.trimmed(body).isEmpty else {
        fail(.unexpectedText, "<\(frame.element.name)> must be empty", at: frame.location)
        return nil
      }
      content = .boolean(frame.element == .true)
    case .plist, .dict, .array, .key:
      return nil
    }
    return PropertyListValue(content, location: frame.location)
  }

  /// Text for a message: at most 60 characters, with line breaks shown as `\n`.
  static func shown(_ text: String) -> String {
    let flat = text.replacingOccurrences(of: "\n", with: "\\n")
    return flat.count > 60 ? String(flat.prefix(57)) + "…" : flat
  }
}
