import FolioSystem
import FoundationEssentials
import Glibc

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

  /// An open `<plist>`, `<dict>` or `<array>`.
  private struct Container {
    var element: Element
    var location: SourceLocation
    var items: [PropertyListValue] = []
    var entries: [PropertyListValue.DictionaryEntry] = []
    var pendingKey: String?
    var pendingKeyLocation: SourceLocation?
  }

  /// Dictionaries up to this size look for repeated keys by comparing pairs; larger ones hash.
  private static let pairwiseDuplicateLimit = 24

  private let file: String
  private let maximumDepth: Int
  private let maximumValueCount: Int
  private var valueCount = 0
  private var tracker: TextPositionTracker
  /// Open containers, innermost last (only containers nest, so one open leaf is enough).
  private var containers: [Container] = []
  /// The open leaf element (`<key>`, `<string>`, …) and where it starts.
  private var leaf: Element?
  private var leafLocation = SourceLocation(file: "")
  private var text: [UInt8] = []
  /// Containers other than `<plist>` that are open.
  private var containerDepth = 0
  /// The finished top-level value.
  private(set) var root: PropertyListValue?
  /// The first error found; the parser stops at it.
  private(set) var failure: PropertyListError?
  /// Warnings such as duplicate keys.
  private(set) var diagnostics: [Diagnostic] = []
  /// The repeated keys met, warned about up to a limit.
  private(set) var duplicateKeys = DuplicateKeyWarnings()
  /// The largest offset any event has reported so far.
  private(set) var furthestOffset = 0

  /// Creates a builder over the UTF-8 bytes being parsed (which must outlive it).
  init(
    bytes: UnsafeBufferPointer<UInt8>, file: String, maximumDepth: Int,
    maximumValueCount: Int = PropertyListReadOptions.defaultMaximumValueCount
  ) {
    self.file = file
    self.maximumDepth = maximumDepth
    self.maximumValueCount = maximumValueCount
    self.tracker = TextPositionTracker(bytes: bytes)
    containers.reserveCapacity(16)
  }

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

  /// The XInclude namespace: an `<xi:include>` would pull in another file, which a
  /// property list never does.
  static let xincludeNamespace = "http://www.w3.org/2001/XInclude"

  /// An element starts; `offset` is the byte offset of its `<`.
  ///
  /// - Parameters:
  ///   - name: The element's local name.
  ///   - prefix: Its namespace prefix as written (`xi` of `<xi:include>`), if any.
  ///   - namespace: Its namespace URI, if any.
  ///   - offset: The byte offset of its `<`.
  func startElement(
    _ name: UnsafeBufferPointer<UInt8>, prefix: UnsafeBufferPointer<UInt8>?, namespace: String?,
    offset: Int
  ) {
    let here = location(at: offset)
    guard prefix == nil, namespace == nil, var element = Element(name: name) else {
      // Named as written, prefix and all, so `<xi:include>` reads as what it is.
      let local = String(decoding: name, as: UTF8.self)
      let shown = prefix.map { String(decoding: $0, as: UTF8.self) + ":" + local } ?? local
      let what =
        namespace == Self.xincludeNamespace
        ? "an XInclude element <\(shown)>, which Folio never follows"
        : "unknown element <\(shown)>\(namespace.map { " (namespace \($0))" } ?? "")"
      fail(
        .unknownElement,
        "\(what); expected one of plist, dict, key, array, string, integer, real, true, false, date, data",
        at: here)
      return
    }
    if let leaf {
      fail(
        .unexpectedElement, "unexpected element <\(element.name)> inside <\(leaf.name)>", at: here)
      return
    }
    let top = containers.count - 1
    if element == .key && (top < 0 || containers[top].element != .dict) {
      // Apple reads a stray <key> as a string; the DTD does not allow it, so say so.
      diagnostics.append(
        Diagnostic(
          severity: .warning, code: Diagnostic.strayKeyCode,
          message: "<key> outside a <dict> is read as a string", location: here,
          hint: "use <string>"))
      element = .string
    }
    if top >= 0 {
      let parent = containers[top].element
      if parent == .dict {
        if element == .key {
          if let key = containers[top].pendingKey {
            fail(
              .missingValue, "<key> '\(Self.shown(key))' has no value",
              at: containers[top].pendingKeyLocation)
            return
          }
        } else if containers[top].pendingKey == nil {
          fail(.missingKey, "expected <key> in <dict>, found <\(element.name)>", at: here)
          return
        }
      } else {
        if element == .plist {
          fail(.unexpectedElement, "unexpected <\(element.name)> inside <\(parent.name)>", at: here)
          return
        }
        if parent == .plist && !containers[top].items.isEmpty {
          fail(
            .unexpectedElement,
            "<plist> holds more than one value; found a second one, <\(element.name)>", at: here)
          return
        }
      }
    }
    if element != .key && element != .plist {
      valueCount += 1
      if valueCount > maximumValueCount {
        fail(
          .tooManyValues,
          "the property list holds more than \(maximumValueCount) values, the limit for a property list",
          at: here)
        return
      }
    }
    if element.holdsText {
      text.removeAll(keepingCapacity: true)
      leaf = element
      leafLocation = here
      return
    }
    if element.isContainer {
      containerDepth += 1
      if containerDepth > maximumDepth {
        fail(.tooDeep, "containers nest deeper than the limit of \(maximumDepth) levels", at: here)
        return
      }
    }
    containers.append(Container(element: element, location: here))
  }

  /// The current element ends.
  func endElement() {
    guard failure == nil else { return }
    if let element = leaf {
      leaf = nil
      if element == .key {
        guard let string = decodedText(element, at: leafLocation) else { return }
        let top = containers.count - 1
        containers[top].pendingKey = string
        containers[top].pendingKeyLocation = leafLocation
        return
      }
      guard let value = leafValue(element, at: leafLocation) else { return }
      attach(value)
      return
    }
    guard var frame = containers.popLast() else { return }
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
      reportDuplicateKeys(frame.entries)
      value = PropertyListValue(.dictionary(frame.entries), location: frame.location)
      frame.entries = []
    default:
      containerDepth -= 1
      value = PropertyListValue(.array(frame.items), location: frame.location)
      frame.items = []
    }
    attach(value)
  }

  /// Character data (text, or whitespace between elements) at a byte offset.
  func characters(_ chunk: UnsafeBufferPointer<UInt8>, offset: Int) {
    guard failure == nil else { return }
    if leaf != nil {
      text.append(contentsOf: chunk)
      return
    }
    guard let first = chunk.firstIndex(where: { !PropertyListScalarSyntax.isWhitespace($0) }) else {
      return
    }
    let stray = String(decoding: chunk[first...], as: UTF8.self)
      .trimming(while: \.isWhitespace)
    let container = containers.last.map { "<\($0.element.name)>" } ?? "the document"
    fail(
      .unexpectedText, "unexpected text '\(Self.shown(stray))' in \(container)",
      atOffset: offset + first)
  }

  /// A CDATA section: text inside `<string>` and `<key>`, refused inside other values.
  func cdata(_ chunk: UnsafeBufferPointer<UInt8>, offset: Int) {
    guard failure == nil else { return }
    if let leaf, leaf != .string && leaf != .key {
      fail(
        .misplacedMarkup,
        "<\(leaf.name)> holds a CDATA section; Apple's reader allows CDATA only in <string> and <key>",
        at: leafLocation)
      return
    }
    characters(chunk, offset: offset)
  }

  /// A comment or processing instruction: fine between elements, refused inside a value.
  func markup(_ kind: String) {
    guard failure == nil, let leaf else { return }
    fail(
      .misplacedMarkup,
      "<\(leaf.name)> holds a \(kind); Apple's reader refuses one inside a value", at: leafLocation)
  }

  // MARK: Values

  private func attach(_ value: PropertyListValue) {
    let top = containers.count - 1
    guard top >= 0 else {
      root = value
      return
    }
    if containers[top].element == .dict {
      guard let key = containers[top].pendingKey else { return }
      containers[top].entries.append(
        .init(key: key, keyLocation: containers[top].pendingKeyLocation, value: value))
      containers[top].pendingKey = nil
      containers[top].pendingKeyLocation = nil
    } else {
      containers[top].items.append(value)
    }
  }

  /// Warns about each key that repeats an earlier key of the same dictionary.
  private func reportDuplicateKeys(_ entries: [PropertyListValue.DictionaryEntry]) {
    var firstIndex: [String: Int] = [:]
    for index in entries.indices.dropFirst() {
      let key = entries[index].key
      let earlier: Int?
      if entries.count <= Self.pairwiseDuplicateLimit {
        earlier = entries[..<index].firstIndex { $0.key == key }
      } else {
        if firstIndex.isEmpty { firstIndex[entries[0].key] = 0 }
        earlier = firstIndex[key]
        if earlier == nil { firstIndex[key] = index }
      }
      guard let earlier else { continue }
      let line = entries[earlier].keyLocation?.line.map { " (first at line \($0))" } ?? ""
      duplicateKeys.record(
        Diagnostic(
          severity: .warning, code: Diagnostic.duplicateKeyCode,
          message: "key '\(Self.shown(key))' repeats in this <dict>\(line); the last value wins",
          location: entries[index].keyLocation, hint: "remove one of the entries"))
    }
  }

  private func decodedText(_ element: Element, at location: SourceLocation) -> String? {
    // libxml2 has already refused input that is not UTF-8, and character references always
    // produce valid UTF-8, so decoding cannot fail or substitute here.
    String(decoding: text, as: UTF8.self)
  }

  private func leafValue(_ element: Element, at location: SourceLocation) -> PropertyListValue? {
    let content: PropertyListValue.Content
    let body = text[...]
    switch element {
    case .string:
      guard let string = decodedText(element, at: location) else { return nil }
      content = .string(string)
    case .integer:
      switch PropertyListScalarSyntax.integer(body) {
      case .signed(let value): content = .integer(value)
      case .unsigned(let value): content = .unsignedInteger(value)
      case nil:
        let shown = Self.shown(String(decoding: body, as: UTF8.self))
        fail(.invalidInteger, "<integer> '\(shown)' is not a 64-bit integer", at: location)
        return nil
      }
    case .real:
      guard let value = PropertyListScalarSyntax.real(body) else {
        let shown = Self.shown(String(decoding: body, as: UTF8.self))
        fail(.invalidReal, "<real> '\(shown)' is not a number", at: location)
        return nil
      }
      content = .real(value)
    case .date:
      guard let parsed = PropertyListScalarSyntax.date(body) else {
        let shown = Self.shown(String(decoding: body, as: UTF8.self))
        fail(
          .invalidDate, "<date> '\(shown)' is not a date of the form YYYY-MM-DDTHH:MM:SSZ",
          at: location)
        return nil
      }
      if parsed.rolledOver, let normal = PropertyListScalarSyntax.dateText(parsed.date) {
        let shown = String(decoding: body, as: UTF8.self)
        diagnostics.append(
          Diagnostic(
            severity: .warning, code: Diagnostic.nonexistentDateCode,
            message: "<date> '\(shown)' does not exist; it is read as \(normal), as Apple reads it",
            location: location, hint: "write \(normal)"))
      }
      content = .date(parsed.date)
    case .data:
      switch PropertyListScalarSyntax.base64(body) {
      case .success(let data): content = .data(data)
      case .failure(let failure):
        let what =
          failure.index < body.endIndex
          ? "unexpected character '\(String(decoding: body[failure.index...].prefix(1), as: UTF8.self))'"
          : "it ends in the middle of a byte"
        fail(.invalidData, "<data> is not valid base64: \(what)", at: location)
        return nil
      }
    case .true, .false:
      guard body.isEmpty else {
        fail(.unexpectedText, "<\(element.name)> must be empty", at: location)
        return nil
      }
      content = .boolean(element == .true)
    case .plist, .dict, .array, .key:
      return nil
    }
    return PropertyListValue(content, location: location)
  }

  /// Text for a message: at most 60 characters, with line breaks shown as `\n`.
  static func shown(_ text: String) -> String {
    let flat = text.replacing("\n", with: "\\n")
    return flat.count > 60 ? String(flat.prefix(57)) + "…" : flat
  }
}
