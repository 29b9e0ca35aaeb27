import FolioSystem
import Glibc

// Identification by name and content, as the shared-mime-info specification recommends
// ("Recommended checking order"), with the registry's own declarations first:
//
// 1. Name. Types declared by loaded files claim their extensions first. Then the system
//    types' extensions (weight 50, any letter case) and the shared MIME database's globs
//    are matched together: a literal name (`Makefile`) before any pattern; otherwise the
//    highest weight, then the longest pattern (`*.tar.gz` before `*.gz`); a case-sensitive
//    pattern before an equally long one of any case (`main.C` is C++); the desktop's glob
//    before a system extension. The best matches (highest weight, then longest) are the
//    name's candidates; they conflict when they are different types.
// 2. Content, when asked for, or when the name says nothing or conflicts: the first bytes
//    (at most ``TypeRegistry/contentReadLength``) against the magic rules, highest priority
//    first; an XML document's root element against the root-XML rules (a root-XML match
//    counts as priority 80, as sure as a signature); else text or binary, from the first
//    bytes (no control characters but whitespace: text; `{` or `[` first: JSON).
// 3. Together: a name candidate that is the content's type or a subtype of it wins (a
//    `.docx` is a zip: the name's type, confirmed); else a content match whose priority is
//    at least the glob's weight wins (a glob wins only with a weight above the magic's
//    priority); else the name's first candidate. The text-or-binary guess only breaks ties
//    and never overrides a name, except that text content replaces a dynamic type from an
//    unknown extension. With no name match, the content decides; with neither, an unknown
//    extension keeps its dynamic type and a file without one is `public.data`.
//
// A system type's extension counts as a glob of weight 50 for the type Apple's lookup
// answers (the first claimant that is not a folder type). With a desktop database loaded,
// an extension the database has no glob for weighs 40: on Linux the desktop database is
// the authority on names, and an extension only Apple's table knows (`.bin`, `.ul`,
// `.plist`, `.swift`) is a guess worth checking against the content, as the database's
// own globs below the default weight are. A name whose best
// glob weighs less than 50 is inconclusive: the content is read. An empty file is text
// (an empty text document, as GLib says) when its name says nothing.

extension TypeRegistry {
  /// When identification reads a file's content.
  public enum ContentPolicy: Sendable, Hashable, CaseIterable {
    /// Never: by name only.
    case never
    /// When the name gives no type (no extension, an unknown one) or conflicting ones.
    case whenNameIsInconclusive
    /// Always, and the content may overrule the name.
    case always
  }

  /// The most leading bytes content identification reads: enough for every magic rule of
  /// the loaded database (32,774 for freedesktop.org's 2.2) and at least 4 KiB.
  public var contentReadLength: Int { contentRules.readLength }

  /// Identifies an item by name and, if given, its first bytes.
  ///
  /// - Parameters:
  ///   - fileName: The item's last path component.
  ///   - kind: What the item is; content counts for regular files only.
  ///   - content: The item's first bytes (up to ``contentReadLength``), or `nil` to go by
  ///     name alone.
  /// - Returns: The type, the evidence, the MIME types and the ranked candidates.
  public func identification(
    forFileNamed fileName: String, kind: FileSystemItemKind, content: [UInt8]?
  ) -> TypeIdentification {
    if let content {
      return content.withUnsafeBytes {
        withMIMETypes(decision(forFileNamed: fileName, kind: kind, prefix: $0))
      }
    }
    return withMIMETypes(decision(forFileNamed: fileName, kind: kind, prefix: nil))
  }

  /// Identifies the item at a path, reading its first bytes when the policy says so.
  ///
  /// - Parameters:
  ///   - path: The item; a final symbolic link is not followed.
  ///   - policy: When to read the content.
  /// - Returns: The identification.
  /// - Throws: ``UniformTypeError`` with `no-such-item` when nothing is at `path`, and
  ///   `unreadable-content` when the content was needed and cannot be read.
  public func identification(ofItemAtPath path: String, content policy: ContentPolicy)
    throws -> TypeIdentification
  {
    guard let kind = Self.itemKind(atPath: path) else {
      throw UniformTypeError(
        .noSuchItem, "\(path): no such file or directory", cause: SystemError.current)
    }
    let name = Self.lastComponent(of: path)
    let byName = decision(forFileNamed: name, kind: kind, prefix: nil)
    guard kind == .regularFile, policy != .never else { return withMIMETypes(byName) }
    if policy == .whenNameIsInconclusive, !isInconclusive(name) { return withMIMETypes(byName) }
    let prefix = try Self.readPrefix(of: path, length: contentReadLength)
    return prefix.withUnsafeBytes {
      withMIMETypes(decision(forFileNamed: name, kind: kind, prefix: $0))
    }
  }

  /// An identification with its type's MIME types filled in.
  ///
  /// Apart from the decision: the MIME types are read from the type's declaration (a row of
  /// the system table for most types), which typing a file name alone does not need.
  private func withMIMETypes(_ decided: TypeIdentification) -> TypeIdentification {
    var identification = decided
    identification.mimeTypes = declaredTags(of: decided.identifier).filter {
      $0.tagClass == .mimeType
    }.map(\.value)
    return identification
  }

  /// The shared MIME database's definitions merged into a type (usually one; none when the
  /// database does not describe it or was not loaded).
  ///
  /// - Parameter type: The type.
  /// - Returns: The definitions, with their globs, magic and root-XML rules.
  public func desktopDefinitions(for type: UTType) -> [MIMETypeDefinition] {
    desktopDefinitions(for: type.typeIdentifier)
  }

  /// The shared MIME database's definitions merged into a type.
  package func desktopDefinitions(for type: TypeIdentifier) -> [MIMETypeDefinition] {
    guard let position = indexByIdentifier[type] else { return [] }
    return contentRules.definitions[position] ?? []
  }

  /// Whether the registry holds a shared MIME database (even an empty one).
  public var hasDesktopDatabase: Bool { contentRules.hasDesktopDatabase }

  /// Whether a name gives no type, or types that conflict, so content should decide.
  ///
  /// - Parameter fileName: The name.
  /// - Returns: `true` when no extension or glob matches, or the best matches disagree.
  public func isInconclusive(_ fileName: String) -> Bool {
    guard let match = nameMatch(fileName) else { return true }
    return match.top.count > 1 || match.weight < MIMEGlob.defaultWeight
  }

  /// The first bytes of a regular file.
  static func readPrefix(of path: String, length: Int) throws -> [UInt8] {
    let descriptor = SystemCall.retryingInterrupts {
      open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    }
    guard descriptor >= 0 else {
      let code = errno
      throw UniformTypeError(
        .unreadableContent, "cannot read \(path)", cause: SystemError(errno: code))
    }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: length)
    var filled = 0
    while filled < length {
      let count = buffer.withUnsafeMutableBytes { buffer in
        SystemCall.retryingInterrupts {
          read(descriptor, buffer.baseAddress! + filled, length - filled)
        }
      }
      if count < 0 {
        let code = errno
        throw UniformTypeError(
          .unreadableContent, "cannot read \(path)", cause: SystemError(errno: code))
      }
      if count == 0 { break }
      filled += count
    }
    buffer.removeSubrange(filled...)
    return buffer
  }

  // MARK: The decision

  /// The type, the evidence and the candidates for an item, without its MIME types.
  func decision(
    forFileNamed fileName: String, kind: FileSystemItemKind, prefix: UnsafeRawBufferPointer?
  ) -> TypeIdentification {
    switch kind {
    case .symbolicLink: return made(.symlink, .kind)
    case .namedPipe: return made("public.named-pipe", .kind)
    case .socket: return made("public.socket", .kind)
    case .characterDevice: return made("public.character-special", .kind)
    case .blockDevice: return made("public.block-special", .kind)
    case .directory:
      if let package = indexByIdentifier[.package] {
        for suffix in Self.extensionSuffixes(of: fileName) {
          if let candidate = extensionCandidates(suffix).first(where: { conforms($0, package) }) {
            return made(
              nodes[Int(candidate)].identifier, .name,
              candidates: [
                .init(
                  identifier: nodes[Int(candidate)].identifier, evidence: .name,
                  rule: "extension \(suffix)", strength: MIMEGlob.defaultWeight)
              ])
          }
        }
      }
      return made(.folder, .kind)
    case .regularFile:
      break
    }

    let name = nameMatch(fileName)
    let content = prefix.map { contentMatch($0) }
    var candidates = name?.candidates ?? []
    for candidate in content?.candidates ?? []
    where !candidates.contains(where: {
      $0.identifier == candidate.identifier && $0.evidence == .content
    }) {
      candidates.append(candidate)
    }

    guard let name else {
      if let best = content?.best {
        return made(nodes[Int(best.node)].identifier, .content, candidates: candidates)
      }
      let last = Self.extensionSuffixes(of: fileName).last
      if let fallback = content?.fallback, fallback.isText || last == nil {
        return made(nodes[Int(fallback.node)].identifier, .content, candidates: candidates)
      }
      guard let last else { return made(.data, .name, candidates: candidates) }
      return made(
        .dynamic(tagClass: .filenameExtension, tag: last), .name, candidates: candidates)
    }

    if let content {
      let sniffed = content.best ?? content.fallback
      if let sniffed,
        let agreeing = name.top.first(where: { isSubclass($0, of: sniffed.node) })
      {
        return made(nodes[Int(agreeing)].identifier, .both, candidates: candidates)
      }
      if let best = content.best, best.priority >= name.weight {
        return made(nodes[Int(best.node)].identifier, .content, candidates: candidates)
      }
    }
    return made(nodes[Int(name.top[0])].identifier, .name, candidates: candidates)
  }

  private func made(
    _ identifier: TypeIdentifier, _ evidence: TypeIdentification.Evidence,
    candidates: [TypeIdentification.Candidate] = []
  ) -> TypeIdentification {
    TypeIdentification(identifier: identifier, evidence: evidence, candidates: candidates)
  }

  /// Whether a node is another or a subtype of it, by conformance or by the shared MIME
  /// database's sub-class-of relation (which also knows that a `.docx` is a zip).
  func isSubclass(_ node: Int32, of ancestor: Int32) -> Bool {
    if node == ancestor || conforms(node, ancestor) { return true }
    var seen: Set<Int32> = [node]
    var stack = contentRules.mimeParents[node] ?? []
    while let current = stack.popLast() {
      if current == ancestor || conforms(current, ancestor) { return true }
      guard seen.insert(current).inserted else { continue }
      stack += contentRules.mimeParents[current] ?? []
    }
    return false
  }

  // MARK: By name

  /// The outcome of matching a name.
  struct NameMatch {
    /// Every match, best first.
    var candidates: [TypeIdentification.Candidate]
    /// The distinct types of the best group (highest weight, then longest pattern), in order.
    var top: [Int32]
    /// The best group's weight.
    var weight: Int
  }

  /// Matches a regular file's name: declared extensions, then system extensions and globs.
  func nameMatch(_ fileName: String) -> NameMatch? {
    // Types loaded from declaration files: the longest extension first, as before globs.
    for suffix in Self.extensionSuffixes(of: fileName) {
      let declared = extensionCandidates(suffix).filter {
        guard let kind = nodes[Int($0)].kind else { return false }
        return kind != .system && !conforms($0, indexByIdentifier[.directory] ?? -1)
      }
      if let first = declared.first {
        let candidates = declared.map {
          TypeIdentification.Candidate(
            identifier: nodes[Int($0)].identifier, evidence: .name, rule: "extension \(suffix)",
            strength: 100)
        }
        return NameMatch(candidates: candidates, top: [first], weight: 100)
      }
    }
    let rules = contentRules
    let folded = TypeIdentifier.foldCase(fileName)
    var hits: [Int] = []
    hits += rules.literals[fileName] ?? []
    hits += rules.foldedLiterals[folded] ?? []
    if hits.isEmpty {
      let bytes = Array(fileName.utf8)
      let foldedBytes = Array(folded.utf8)
      let dots = Self.leadingDots(of: fileName)
      for length in rules.suffixLengths {
        // An extension needs a name before it: `.png` is a hidden file, not an image.
        let hidden = { (key: String) in key.hasPrefix(".") && bytes.count - length < dots }
        if length <= bytes.count, rules.suffixFirstBytes[Int(bytes[bytes.count - length])] {
          let key = String(decoding: bytes[(bytes.count - length)...], as: UTF8.self)
          if !hidden(key) { hits += rules.suffixes[key] ?? [] }
        }
        if length <= foldedBytes.count,
          rules.suffixFirstBytes[Int(foldedBytes[foldedBytes.count - length])]
        {
          let key = String(decoding: foldedBytes[(foldedBytes.count - length)...], as: UTF8.self)
          if !hidden(key) { hits += rules.foldedSuffixes[key] ?? [] }
        }
      }
      if hits.isEmpty, !rules.wildcards.isEmpty {
        let scalars = Array(fileName.unicodeScalars)
        let foldedScalars = Array(folded.unicodeScalars)
        for hit in rules.wildcards {
          guard let pattern = rules.globs[hit].compiled else { continue }
          if pattern.matches(pattern.isFolded ? foldedScalars : scalars) { hits.append(hit) }
        }
      }
    }
    // A regular file is never a folder type (`x.rtfd` as a file is not rich text with
    // attachments); a package extension on a file says nothing.
    if let directory = indexByIdentifier[.directory] {
      hits.removeAll { conforms(rules.globs[$0].node, directory) }
    }
    guard !hits.isEmpty else { return nil }
    let ordered = hits.sorted { a, b in
      let left = rules.globs[a]
      let right = rules.globs[b]
      if left.weight != right.weight { return left.weight > right.weight }
      if left.length != right.length { return left.length > right.length }
      if left.isCaseSensitive != right.isCaseSensitive { return left.isCaseSensitive }
      // The desktop's own glob before a system extension of equal standing.
      if (left.mimeType == nil) != (right.mimeType == nil) { return left.mimeType != nil }
      return a < b
    }
    let best = rules.globs[ordered[0]]
    var top: [Int32] = []
    var candidates: [TypeIdentification.Candidate] = []
    for hit in ordered {
      let glob = rules.globs[hit]
      if glob.weight == best.weight, glob.length == best.length, !top.contains(glob.node) {
        top.append(glob.node)
      }
      let identifier = nodes[Int(glob.node)].identifier
      guard !candidates.contains(where: { $0.identifier == identifier }) else { continue }
      candidates.append(
        TypeIdentification.Candidate(
          identifier: identifier, mimeType: glob.mimeType, evidence: .name,
          rule: glob.mimeType == nil
            ? "extension \(glob.pattern.dropFirst(2))" : "glob \(glob.pattern)",
          strength: glob.weight))
    }
    return NameMatch(candidates: candidates, top: top, weight: best.weight)
  }

  // MARK: By content

  /// The outcome of looking at a file's first bytes.
  struct ContentMatch {
    struct Hit {
      var node: Int32
      var priority: Int
      var isText = false
    }

    /// The best magic or root-XML match.
    var best: Hit?
    /// The text-or-binary guess, when no rule matched.
    var fallback: Hit?
    /// Every match, best first, then the guess.
    var candidates: [TypeIdentification.Candidate]
  }

  /// Applies the content rules to a file's first bytes.
  func contentMatch(_ prefix: UnsafeRawBufferPointer) -> ContentMatch {
    let rules = contentRules
    var result = ContentMatch(best: nil, fallback: nil, candidates: [])
    func note(_ node: Int32, mimeType: String?, rule: String, priority: Int) {
      let identifier = nodes[Int(node)].identifier
      guard
        !result.candidates.contains(where: { $0.identifier == identifier })
      else { return }
      result.candidates.append(
        TypeIdentification.Candidate(
          identifier: identifier, mimeType: mimeType, evidence: .content, rule: rule,
          strength: priority))
    }
    for entry in rules.magic where entry.rule.matches(prefix) {
      if result.best == nil {
        result.best = .init(node: entry.node, priority: entry.rule.priority)
      }
      note(entry.node, mimeType: entry.mimeType, rule: "magic", priority: entry.rule.priority)
    }
    // XML: a root-XML rule makes it something more specific.
    // Markup that no rule or only an XML or text rule recognised: look at the root element.
    let looksLikeXML =
      Self.startsWithMarkup(prefix)
      && result.best.map { best in
        [indexByIdentifier[.xml], indexByIdentifier[.plainText]].contains { general in
          general.map { isSubclass(best.node, of: $0) } ?? false
        }
      } ?? true
    if looksLikeXML, let root = XMLRootElement.find(in: prefix),
      let match = rules.rootXML.first(where: { $0.rule.matches(root) })
    {
      let priority = max(result.best?.priority ?? 0, 80)
      result.best = .init(node: match.node, priority: priority)
      let label =
        root.namespaceURI.isEmpty ? root.localName : "\(root.namespaceURI) \(root.localName)"
      result.candidates.removeAll { $0.identifier == nodes[Int(match.node)].identifier }
      result.candidates.insert(
        TypeIdentification.Candidate(
          identifier: nodes[Int(match.node)].identifier, mimeType: match.mimeType,
          evidence: .content, rule: "root-XML \(label)", strength: priority), at: 0)
    }
    if result.best == nil {
      if Self.looksLikeText(prefix) {
        let node: Int32?
        let rule: String
        if Self.looksLikeJSON(prefix), let json = rules.json {
          (node, rule) = (json, "JSON text")
        } else if Self.isUTF8(prefix) {
          (node, rule) = (rules.utf8PlainText ?? rules.plainText, "UTF-8 text")
        } else {
          (node, rule) = (rules.plainText, "text")
        }
        if let node {
          result.fallback = .init(node: node, priority: 0, isText: true)
          note(node, mimeType: nil, rule: rule, priority: 0)
        }
      } else if let data = rules.octetStream {
        result.fallback = .init(node: data, priority: 0)
        note(data, mimeType: nil, rule: "binary", priority: 0)
      }
    }
    return result
  }

  /// The shared-mime-info specification's test: no ASCII control characters but
  /// whitespace (and backspace, as GLib allows); bytes with the high bit set are text.
  static func looksLikeText(_ bytes: UnsafeRawBufferPointer) -> Bool {
    for byte in bytes where byte < 0x20 || byte == 0x7F {
      switch byte {
      case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x08: continue
      default: return false
      }
    }
    return true
  }

  /// Whether bytes are UTF-8 (a sequence cut off at the end counts: more may follow).
  static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      let length: Int
      switch byte {
      case 0x00...0x7F: length = 1
      case 0xC2...0xDF: length = 2
      case 0xE0...0xEF: length = 3
      case 0xF0...0xF4: length = 4
      default: return false
      }
      // A sequence cut off by the end of the prefix counts, if what is there fits.
      for offset in 1..<length where index + offset < bytes.count {
        if bytes[index + offset] & 0xC0 != 0x80 { return false }
      }
      index += length
    }
    return true
  }

  private static func firstNonSpace(_ bytes: UnsafeRawBufferPointer) -> UInt8? {
    var index = 0
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    while index < bytes.count {
      let byte = bytes[index]
      if byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { return byte }
      index += 1
    }
    return nil
  }

  /// Whether text starts as JSON does: `{` then a key or `}`, or `[` then a value or `]`
  /// (an INI section such as `[core]` does not).
  static func looksLikeJSON(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    func nextNonSpace() -> UInt8? {
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { return byte }
      }
      return nil
    }
    switch nextNonSpace() {
    case UInt8(ascii: "{"):
      let next = nextNonSpace()
      return next == nil || next == UInt8(ascii: "\"") || next == UInt8(ascii: "}")
    case UInt8(ascii: "["):
      guard let next = nextNonSpace() else { return true }
      switch next {
      case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "]"),
        UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"),
        UInt8(ascii: "f"), UInt8(ascii: "n"):
        return true
      default:
        return false
      }
    default:
      return false
    }
  }

  static func startsWithMarkup(_ bytes: UnsafeRawBufferPointer) -> Bool {
    firstNonSpace(bytes) == UInt8(ascii: "<")
  }
}
