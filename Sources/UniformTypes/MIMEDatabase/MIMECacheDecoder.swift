import FolioSystem
import PropertyLists

/// Reads what ``MIMECacheEncoder`` wrote, checking every count and bound as it goes.
///
/// A cache is a file anyone able to write the user's cache folder can change, so nothing in
/// it is trusted: every read is bounds-checked, every count is capped by the bytes left,
/// and what the matchers rely on (non-empty values, masks as long as their values, extents
/// and nesting within the load's limits) is checked as the reader of the XML checks it.
/// Anything else is ``Damaged`` and the whole cache is set aside.
struct MIMECacheDecoder {
  /// The cache does not hold what the encoder writes.
  struct Damaged: Error {}

  private let bytes: UnsafeRawBufferPointer
  private(set) var position = 0
  private let limits: MIMEDatabaseLimits
  private var fileNames: [String] = []

  init(_ bytes: UnsafeRawBufferPointer, limits: MIMEDatabaseLimits) {
    self.bytes = bytes
    self.limits = limits
  }

  var isAtEnd: Bool { position == bytes.count }

  mutating func unsigned() throws(Damaged) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard position < bytes.count, shift < 64 else { throw Damaged() }
      let byte = bytes[position]
      position += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
    }
  }

  mutating func integer() throws(Damaged) -> Int {
    let raw = try unsigned()
    return Int(Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
  }

  /// A count of things each at least one byte long, so never more than the bytes left.
  mutating func count() throws(Damaged) -> Int {
    let value = try unsigned()
    guard value <= UInt64(bytes.count - position) else { throw Damaged() }
    return Int(value)
  }

  mutating func boolean() throws(Damaged) -> Bool {
    guard position < bytes.count else { throw Damaged() }
    let byte = bytes[position]
    position += 1
    guard byte <= 1 else { throw Damaged() }
    return byte == 1
  }

  mutating func string() throws(Damaged) -> String {
    let length = try count()
    let start = position
    position += length
    return String(
      decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
  }

  mutating func optionalString() throws(Damaged) -> String? {
    try boolean() ? try string() : nil
  }

  mutating func byteArray() throws(Damaged) -> [UInt8] {
    let length = try count()
    let start = position
    position += length
    return [UInt8](bytes[start..<position])
  }

  mutating func fileName() throws(Damaged) -> String {
    let number = try unsigned()
    if number < UInt64(fileNames.count) { return fileNames[Int(number)] }
    guard number == UInt64(fileNames.count) else { throw Damaged() }
    let name = try string()
    fileNames.append(name)
    return name
  }

  mutating func location() throws(Damaged) -> SourceLocation? {
    guard position < bytes.count else { throw Damaged() }
    let flags = bytes[position]
    position += 1
    if flags == 0 { return nil }
    guard flags & 1 == 1, flags < 16 else { throw Damaged() }
    let file = try fileName()
    return SourceLocation(
      file: file, line: flags & 2 != 0 ? try integer() : nil,
      column: flags & 4 != 0 ? try integer() : nil,
      byteOffset: flags & 8 != 0 ? try integer() : nil)
  }

  mutating func located() throws(Damaged) -> [Located<String>] {
    let count = try count()
    var values: [Located<String>] = []
    values.reserveCapacity(count)
    for _ in 0..<count {
      let value = try string()
      values.append(Located(value, location: try location()))
    }
    return values
  }

  mutating func match(depth: Int, matches: inout Int) throws(Damaged) -> MagicMatch {
    matches += 1
    guard depth <= limits.maximumMatchDepth, matches <= limits.maximumMatches else {
      throw Damaged()
    }
    let kindNumber = try unsigned()
    guard kindNumber < UInt64(MagicMatch.Kind.allCases.count) else { throw Damaged() }
    let kind = MagicMatch.Kind.allCases[Int(kindNumber)]
    let offset = try integer()
    let rangeLength = try integer()
    let value = try byteArray()
    let mask = try boolean() ? try byteArray() : nil
    guard offset >= 0, rangeLength >= 0, !value.isEmpty,
      value.count <= limits.maximumValueLength, mask == nil || mask?.count == value.count,
      offset <= limits.maximumContentExtent, rangeLength <= limits.maximumContentExtent,
      offset + rangeLength + value.count <= limits.maximumContentExtent
    else { throw Damaged() }
    let childCount = try count()
    var children: [MagicMatch] = []
    children.reserveCapacity(childCount)
    for _ in 0..<childCount {
      children.append(try match(depth: depth + 1, matches: &matches))
    }
    return MagicMatch(
      kind: kind, offset: offset, rangeLength: rangeLength, value: value, mask: mask,
      children: children)
  }

  mutating func definition(globs: inout Int, wildcards: inout Int, matches: inout Int)
    throws(Damaged) -> MIMETypeDefinition
  {
    let name = try string()
    guard let typeLocation = try location() else { throw Damaged() }
    var type = MIMETypeDefinition(name: name, location: typeLocation)
    type.aliases = try located()
    type.parents = try located()
    let globCount = try count()
    type.globs.reserveCapacity(globCount)
    for _ in 0..<globCount {
      let pattern = try string()
      let weight = try integer()
      let isCaseSensitive = try boolean()
      let glob = MIMEGlob(
        pattern, weight: weight, isCaseSensitive: isCaseSensitive, location: try location())
      globs += 1
      if GlobPattern.Shape(pattern) == .wildcard { wildcards += 1 }
      guard !pattern.isEmpty, pattern.utf8.count <= limits.maximumPatternLength,
        (0...100).contains(weight), globs <= limits.maximumGlobs,
        wildcards <= limits.maximumWildcardGlobs
      else { throw Damaged() }
      type.globs.append(glob)
    }
    let ruleCount = try count()
    type.magic.reserveCapacity(ruleCount)
    for _ in 0..<ruleCount {
      let priority = try integer()
      let ruleLocation = try location()
      let matchCount = try count()
      var rules: [MagicMatch] = []
      rules.reserveCapacity(matchCount)
      for _ in 0..<matchCount { rules.append(try match(depth: 1, matches: &matches)) }
      type.magic.append(MagicRule(priority: priority, matches: rules, location: ruleLocation))
    }
    let rootCount = try count()
    for _ in 0..<rootCount {
      let namespaceURI = try string()
      type.rootXML.append(RootXMLRule(namespaceURI: namespaceURI, localName: try string()))
    }
    type.comment = try optionalString()
    let commentCount = try count()
    type.localizedComments.reserveCapacity(commentCount)
    for _ in 0..<commentCount {
      let language = try string()
      type.localizedComments[language] = try string()
    }
    type.acronym = try optionalString()
    type.expandedAcronym = try optionalString()
    type.icon = try optionalString()
    type.genericIcon = try optionalString()
    return type
  }

  mutating func diagnostic() throws(Damaged) -> Diagnostic {
    let severityNumber = try unsigned()
    guard severityNumber < UInt64(Diagnostic.Severity.allCases.count) else { throw Damaged() }
    let code = try string()
    let message = try string()
    let location = try location()
    return Diagnostic(
      severity: Diagnostic.Severity.allCases[Int(severityNumber)], code: code, message: message,
      location: location, hint: try optionalString())
  }

  mutating func database() throws(Damaged) -> MIMEDatabase {
    var sourceFiles: [String] = []
    for _ in 0..<(try count()) { sourceFiles.append(try fileName()) }
    var diagnostics: [Diagnostic] = []
    for _ in 0..<(try count()) { diagnostics.append(try diagnostic()) }
    let typeCount = try count()
    guard typeCount <= limits.maximumTypes else { throw Damaged() }
    var types: [MIMETypeDefinition] = []
    types.reserveCapacity(typeCount)
    var globs = 0
    var wildcards = 0
    var matches = 0
    for _ in 0..<typeCount {
      types.append(try definition(globs: &globs, wildcards: &wildcards, matches: &matches))
    }
    return MIMEDatabase(types: types, sourceFiles: sourceFiles, diagnostics: diagnostics)
  }
}
