import FolioSystem
import PropertyLists

/// Reads one source XML file of the shared MIME-info database (`packages/*.xml`) into
/// definitions, element by element as the parser streams them.
///
/// Problems with an element skip that element (and what it contains) with a diagnostic;
/// the rest of the file is still read. Limits are counted across files in ``Budget``.
final class MIMEInfoReader: XMLEventHandler {
  /// The namespace every element of the database must have.
  static let namespace: StaticString = "http://www.freedesktop.org/standards/shared-mime-info"

  /// One `<mime-type>` element as read, with its `*-deleteall` markers.
  struct Element: Sendable {
    var definition: MIMETypeDefinition
    /// `<glob-deleteall/>`: globs from files read before this one are dropped.
    var deletesGlobs = false
    /// `<magic-deleteall/>`: magic from files read before this one is dropped.
    var deletesMagic = false
  }

  /// What is left of the limits, shared by every file of one load.
  struct Budget: Sendable {
    var types: Int
    var globs: Int
    var wildcardGlobs: Int
    var matches: Int

    init(_ limits: MIMEDatabaseLimits) {
      types = limits.maximumTypes
      globs = limits.maximumGlobs
      wildcardGlobs = limits.maximumWildcardGlobs
      matches = limits.maximumMatches
    }
  }

  /// What an open element is, so its end and its text go to the right place.
  private enum Open {
    case mimeInfo
    case mimeType
    case magic
    case match
    case text(TextTarget)
    /// Ignored with everything inside (unknown, foreign, skipped after a problem).
    case skipped
  }

  private enum TextTarget {
    case comment(language: String?)
    case acronym
    case expandedAcronym
  }

  let file: String
  let limits: MIMEDatabaseLimits
  /// Language tags (folded) whose comments are kept; `nil` keeps every language.
  let languages: Set<String>?
  private(set) var budget: Budget
  private(set) var elements: [Element] = []
  private(set) var diagnostics: [Diagnostic] = []
  private var suppressedDiagnostics = 0
  private var stack: [Open] = []
  private var current: Element?
  private var magicPriority = MagicRule.defaultPriority
  private var magicLine = 0
  /// Matches being read: the innermost last; each holds its finished children.
  private var matchStack: [MagicMatch] = []
  private var magicMatches: [MagicMatch] = []
  private var text: [UInt8] = []
  private var stopped = false
  private var limitsReported: Set<String> = []

  /// ``languages``' bytes, for comparing `xml:lang` values before making strings of them.
  private let languageBytes: [[UInt8]]?

  init(file: String, limits: MIMEDatabaseLimits, languages: Set<String>?, budget: Budget) {
    self.file = file
    self.limits = limits
    self.languages = languages
    self.languageBytes = languages.map { $0.map { Array($0.utf8) } }
    self.budget = budget
  }

  var shouldStop: Bool { stopped }

  /// Adds a diagnostic, up to the per-file limit.
  func report(_ problem: MIMEDatabaseProblem, _ message: String, line: Int?, hint: String? = nil) {
    guard diagnostics.count < limits.maximumDiagnosticsPerFile else {
      suppressedDiagnostics += 1
      return
    }
    diagnostics.append(
      problem.diagnostic(message, at: SourceLocation(file: file, line: line), hint: hint))
  }

  /// Ends the read: reports diagnostics left out for the per-file limit.
  func finish() {
    if suppressedDiagnostics > 0 {
      diagnostics.append(
        MIMEDatabaseProblem.limitReached.diagnostic(
          "\(suppressedDiagnostics) more problems in this file are not shown",
          at: SourceLocation(file: file)))
    }
  }

  private func reportLimit(_ what: String, line: Int) {
    guard limitsReported.insert(what).inserted else { return }
    report(
      .limitReached, "more than the limit of \(what); the rest are left out", line: line)
  }

  // MARK: Events

  func startElement(_ name: XMLElementName, attributes: XMLAttributeList, line: Int) {
    guard let parent = stack.last else {
      guard name.isNamed("mime-info"), name.isInNamespace(Self.namespace) else {
        report(
          .notMIMEInfo,
          "the document element is '\(String(decoding: name.localName, as: UTF8.self))', not 'mime-info' in the shared-mime-info namespace",
          line: line, hint: "a database file starts <mime-info xmlns=\"\(Self.namespace)\">")
        stopped = true
        return
      }
      stack.append(.mimeInfo)
      return
    }
    guard name.isInNamespace(Self.namespace) else {
      // The specification lets applications add elements in their own namespaces.
      stack.append(.skipped)
      return
    }
    switch parent {
    case .mimeInfo:
      stack.append(name.isNamed("mime-type") ? startType(attributes, line: line) : .skipped)
    case .mimeType:
      stack.append(startTypeChild(name, attributes: attributes, line: line))
    case .magic, .match:
      stack.append(
        name.isNamed("match")
          ? startMatch(attributes, line: line, depth: matchStack.count)
          : .skipped)
    case .text, .skipped:
      stack.append(.skipped)
    }
  }

  func endElement() {
    guard let open = stack.popLast() else { return }
    switch open {
    case .mimeType:
      if let current { elements.append(current) }
      current = nil
    case .magic:
      if !magicMatches.isEmpty {
        current?.definition.magic.append(
          MagicRule(
            priority: magicPriority, matches: magicMatches,
            location: SourceLocation(file: file, line: magicLine)))
      }
      magicMatches = []
    case .match:
      guard let finished = matchStack.popLast() else { return }
      if matchStack.isEmpty {
        magicMatches.append(finished)
      } else {
        matchStack[matchStack.count - 1].children.append(finished)
      }
    case .text(let target):
      finishText(target)
    case .mimeInfo, .skipped:
      break
    }
  }

  func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard case .text = stack.last else { return }
    let room = limits.maximumTextLength - text.count
    if room > 0 { text.append(contentsOf: bytes.prefix(room)) }
  }

  // MARK: Elements

  private func startType(_ attributes: XMLAttributeList, line: Int) -> Open {
    guard let name = attributes.value("type"), MIMEDatabase.isValidMIMEType(name) else {
      report(
        .invalidType,
        "<mime-type> has \(attributes.value("type").map { "the type '\($0)', which is not media/subtype" } ?? "no type attribute"); skipped",
        line: line)
      return .skipped
    }
    guard budget.types > 0 else {
      reportLimit("\(limits.maximumTypes) types", line: line)
      return .skipped
    }
    budget.types -= 1
    current = Element(
      definition: MIMETypeDefinition(name: name, location: SourceLocation(file: file, line: line)))
    return .mimeType
  }

  private func startTypeChild(_ name: XMLElementName, attributes: XMLAttributeList, line: Int)
    -> Open
  {
    let location = SourceLocation(file: file, line: line)
    if name.isNamed("comment") {
      let language: String?
      if let raw = attributes.languageBytes {
        // Most comments are translations the user does not read: skipped on their bytes.
        if let languageBytes, !languageBytes.contains(where: { Self.isFolded(raw, equalTo: $0) }) {
          return .skipped
        }
        language = String(decoding: raw, as: UTF8.self)
      } else {
        language = nil
      }
      text = []
      return .text(.comment(language: language))
    }
    if name.isNamed("glob") {
      addGlob(attributes, line: line)
      return .skipped
    }
    if name.isNamed("magic") {
      let priority = attributes.value("priority")
      guard let value = priority.map(MagicValueSyntax.percentage) ?? MagicRule.defaultPriority
      else {
        report(
          .invalidMagic, "<magic> has the priority '\(priority ?? "")', not 0 to 100; skipped",
          line: line)
        return .skipped
      }
      magicPriority = value
      magicLine = line
      magicMatches = []
      matchStack = []
      return .magic
    }
    if name.isNamed("alias") || name.isNamed("sub-class-of") {
      let isAlias = name.isNamed("alias")
      guard let type = attributes.value("type"), MIMEDatabase.isValidMIMEType(type) else {
        report(
          .invalidType,
          "<\(isAlias ? "alias" : "sub-class-of")> needs a type attribute of the form media/subtype; skipped",
          line: line)
        return .skipped
      }
      if isAlias {
        current?.definition.aliases.append(Located(type, location: location))
      } else {
        current?.definition.parents.append(Located(type, location: location))
      }
      return .skipped
    }
    if name.isNamed("root-XML") {
      guard let namespaceURI = attributes.value("namespaceURI"),
        let localName = attributes.value("localName"),
        !(namespaceURI.isEmpty && localName.isEmpty)
      else {
        report(
          .invalidRootXML,
          "<root-XML> needs namespaceURI and localName, at least one of them not empty; skipped",
          line: line)
        return .skipped
      }
      current?.definition.rootXML.append(
        RootXMLRule(namespaceURI: namespaceURI, localName: localName))
      return .skipped
    }
    if name.isNamed("acronym") {
      text = []
      return .text(.acronym)
    }
    if name.isNamed("expanded-acronym") {
      text = []
      return .text(.expandedAcronym)
    }
    if name.isNamed("icon") {
      current?.definition.icon = attributes.value("name").map(bounded)
      return .skipped
    }
    if name.isNamed("generic-icon") {
      current?.definition.genericIcon = attributes.value("name").map(bounded)
      return .skipped
    }
    if name.isNamed("glob-deleteall") {
      current?.deletesGlobs = true
      return .skipped
    }
    if name.isNamed("magic-deleteall") {
      current?.deletesMagic = true
      return .skipped
    }
    // treemagic classifies mounted volumes, which Folio does not identify; others are unknown.
    return .skipped
  }

  /// Whether a language tag folds (``MIMEDatabase/foldLanguage(_:)``) to `folded`.
  private static func isFolded(_ tag: UnsafeBufferPointer<UInt8>, equalTo folded: [UInt8]) -> Bool {
    guard tag.allSatisfy({ $0 < 0x80 }) else {
      return Array(MIMEDatabase.foldLanguage(String(decoding: tag, as: UTF8.self)).utf8) == folded
    }
    guard tag.count == folded.count else { return false }
    return zip(tag, folded).allSatisfy { MIMEDatabase.foldLanguage(byte: $0) == $1 }
  }

  private func addGlob(_ attributes: XMLAttributeList, line: Int) {
    let location = SourceLocation(file: file, line: line)
    guard let pattern = attributes.value("pattern"), !pattern.isEmpty else {
      report(.invalidGlob, "<glob> has no pattern attribute; skipped", line: line)
      return
    }
    guard pattern.utf8.count <= limits.maximumPatternLength else {
      report(
        .invalidGlob,
        "the glob pattern is \(pattern.utf8.count) bytes long, more than the limit of \(limits.maximumPatternLength); skipped",
        line: line)
      return
    }
    guard
      !pattern.utf8.contains(where: {
        $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
      })
    else {
      report(
        .invalidGlob,
        "the glob pattern '\(pattern.debugDescription.dropFirst().dropLast())' holds a '/' or a line break, which no file name has; skipped",
        line: line)
      return
    }
    var weight = MIMEGlob.defaultWeight
    if let text = attributes.value("weight") {
      guard let value = MagicValueSyntax.percentage(text) else {
        report(
          .invalidGlob, "the glob '\(pattern)' has the weight '\(text)', not 0 to 100; skipped",
          line: line)
        return
      }
      weight = value
    }
    guard budget.globs > 0 else {
      reportLimit("\(limits.maximumGlobs) globs", line: line)
      return
    }
    if GlobPattern.Shape(pattern) == .wildcard {
      guard budget.wildcardGlobs > 0 else {
        reportLimit("\(limits.maximumWildcardGlobs) wildcard globs", line: line)
        return
      }
      budget.wildcardGlobs -= 1
    }
    budget.globs -= 1
    current?.definition.globs.append(
      MIMEGlob(
        pattern, weight: weight, isCaseSensitive: attributes.value("case-sensitive") == "true",
        location: location))
  }

  private func startMatch(_ attributes: XMLAttributeList, line: Int, depth: Int) -> Open {
    guard depth < limits.maximumMatchDepth else {
      reportLimit("\(limits.maximumMatchDepth) nested matches", line: line)
      return .skipped
    }
    guard budget.matches > 0 else {
      reportLimit("\(limits.maximumMatches) matches", line: line)
      return .skipped
    }
    do {
      guard let typeText = attributes.value("type"), let kind = MagicMatch.Kind(rawValue: typeText)
      else {
        throw MagicValueSyntax.Problem(
          message:
            "type '\(attributes.value("type") ?? "")' is not one of \(MagicMatch.Kind.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      guard let offsetText = attributes.value("offset") else {
        throw MagicValueSyntax.Problem(message: "no offset attribute")
      }
      guard let valueText = attributes.value("value") else {
        throw MagicValueSyntax.Problem(message: "no value attribute")
      }
      let value = try MagicValueSyntax.value(valueText, kind: kind)
      guard value.count <= limits.maximumValueLength else {
        throw MagicValueSyntax.Problem(
          message:
            "the value is \(value.count) bytes long, more than the limit of \(limits.maximumValueLength)"
        )
      }
      let offset = try MagicValueSyntax.offset(
        offsetText, limit: limits.maximumContentExtent - value.count)
      let mask = try attributes.value("mask").map {
        try MagicValueSyntax.mask($0, kind: kind, length: value.count)
      }
      budget.matches -= 1
      matchStack.append(
        MagicMatch(
          kind: kind, offset: offset.start, rangeLength: offset.rangeLength, value: value,
          mask: mask))
      return .match
    } catch let problem as MagicValueSyntax.Problem {
      report(
        .invalidMagic, "<match>: \(problem.message); skipped with its nested matches", line: line)
      return .skipped
    } catch {
      return .skipped
    }
  }

  private func finishText(_ target: TextTarget) {
    let value = String(decoding: text, as: UTF8.self).trimmingWhitespace()
    text = []
    guard !value.isEmpty else { return }
    switch target {
    case .comment(let language?):
      current?.definition.localizedComments[MIMEDatabase.foldLanguage(language)] = value
    case .comment(nil):
      current?.definition.comment = value
    case .acronym:
      current?.definition.acronym = value
    case .expandedAcronym:
      current?.definition.expandedAcronym = value
    }
  }

  private func bounded(_ text: String) -> String {
    text.utf8.count <= limits.maximumTextLength
      ? text : String(decoding: text.utf8.prefix(limits.maximumTextLength), as: UTF8.self)
  }
}
