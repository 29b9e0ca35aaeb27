import FolioSystem
import PropertyLists

/// Writes a loaded ``MIMEDatabase`` in the cache's compact form (``MIMECacheDecoder`` reads it).
///
/// Integers are LEB128 varints (signed ones zigzagged), strings a length and their UTF-8
/// bytes, optionals a presence byte, arrays a count then their elements. The file named by
/// every location is written once and then referred to by number, so decoding shares one
/// string among the thousands of locations that name the same file.
struct MIMECacheEncoder {
  private(set) var bytes: [UInt8] = []
  private var fileNumbers: [String: Int] = [:]

  /// - Parameter capacity: Bytes to make room for (a whole database's cache is about
  ///   120 KB with no translations, 1 MB with all of them).
  init(reservingCapacity capacity: Int = 0) { bytes.reserveCapacity(capacity) }

  mutating func unsigned(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  mutating func integer(_ value: Int) {
    let wide = Int64(value)
    unsigned(UInt64(bitPattern: (wide << 1) ^ (wide >> 63)))
  }

  mutating func boolean(_ value: Bool) { bytes.append(value ? 1 : 0) }

  mutating func string(_ value: String) {
    unsigned(UInt64(value.utf8.count))
    bytes += value.utf8
  }

  mutating func optionalString(_ value: String?) {
    boolean(value != nil)
    if let value { string(value) }
  }

  mutating func byteArray(_ value: [UInt8]) {
    unsigned(UInt64(value.count))
    bytes += value
  }

  /// A file name as its number, spelled out the first time it appears.
  mutating func fileName(_ name: String) {
    if let number = fileNumbers[name] {
      unsigned(UInt64(number))
      return
    }
    let number = fileNumbers.count
    fileNumbers[name] = number
    unsigned(UInt64(number))
    string(name)
  }

  mutating func location(_ location: SourceLocation?) {
    guard let location else {
      bytes.append(0)
      return
    }
    // Bit 0: present; bits 1–3: line, column, byte offset present.
    let flags: UInt8 =
      1 | (location.line != nil ? 2 : 0) | (location.column != nil ? 4 : 0)
      | (location.byteOffset != nil ? 8 : 0)
    bytes.append(flags)
    fileName(location.file)
    if let line = location.line { integer(line) }
    if let column = location.column { integer(column) }
    if let offset = location.byteOffset { integer(offset) }
  }

  mutating func located(_ values: [Located<String>]) {
    unsigned(UInt64(values.count))
    for value in values {
      string(value.value)
      location(value.location)
    }
  }

  mutating func match(_ match: MagicMatch) {
    unsigned(UInt64(MagicMatch.Kind.allCases.firstIndex(of: match.kind) ?? 0))
    integer(match.offset)
    integer(match.rangeLength)
    byteArray(match.value)
    boolean(match.mask != nil)
    if let mask = match.mask { byteArray(mask) }
    unsigned(UInt64(match.children.count))
    for child in match.children { self.match(child) }
  }

  mutating func definition(_ type: MIMETypeDefinition) {
    string(type.name)
    location(type.location)
    located(type.aliases)
    located(type.parents)
    unsigned(UInt64(type.globs.count))
    for glob in type.globs {
      string(glob.pattern)
      integer(glob.weight)
      boolean(glob.isCaseSensitive)
      location(glob.location)
    }
    unsigned(UInt64(type.magic.count))
    for rule in type.magic {
      integer(rule.priority)
      location(rule.location)
      unsigned(UInt64(rule.matches.count))
      for match in rule.matches { self.match(match) }
    }
    unsigned(UInt64(type.rootXML.count))
    for rule in type.rootXML {
      string(rule.namespaceURI)
      string(rule.localName)
    }
    optionalString(type.comment)
    // Sorted, so the same database always makes the same bytes.
    unsigned(UInt64(type.localizedComments.count))
    for (language, text) in type.localizedComments.sorted(by: { $0.key < $1.key }) {
      string(language)
      string(text)
    }
    optionalString(type.acronym)
    optionalString(type.expandedAcronym)
    optionalString(type.icon)
    optionalString(type.genericIcon)
  }

  mutating func diagnostic(_ diagnostic: Diagnostic) {
    unsigned(UInt64(Diagnostic.Severity.allCases.firstIndex(of: diagnostic.severity) ?? 0))
    string(diagnostic.code)
    string(diagnostic.message)
    location(diagnostic.location)
    optionalString(diagnostic.hint)
  }

  mutating func database(_ database: MIMEDatabase) {
    unsigned(UInt64(database.sourceFiles.count))
    for file in database.sourceFiles { fileName(file) }
    unsigned(UInt64(database.diagnostics.count))
    for diagnostic in database.diagnostics { self.diagnostic(diagnostic) }
    unsigned(UInt64(database.types.count))
    for type in database.types { definition(type) }
  }
}
