/// A glob matched against `/`-separated paths inside a package or archive.
///
/// The rules are those of `.gitignore` and bsdtar's `--exclude`:
///
/// - `*` matches any run of characters within one component (never `/`);
///   `?` matches one character; `[abc]`, `[a-z]` and `[!a-z]` (or `[^a-z]`)
///   match one character of a class; `\` makes the next character literal.
/// - `**` as a whole component matches any number of components, none
///   included: `**/cache`, `pages/**/*.txt`, `build/**`.
/// - A pattern without `/` matches a name at any depth (`*.tmp`, `.DS_Store`);
///   a pattern with `/` is anchored at the top (`pages/*.txt`; a leading `/`
///   is allowed). A trailing `/` is ignored.
/// - A pattern matching a folder matches everything inside it
///   (``matches(_:)`` tries the path and each of its ancestors).
public struct PathPattern: Hashable, Sendable, CustomStringConvertible {
  /// The pattern as written.
  public let text: String
  private let components: [[Token]]
  private let anchored: Bool

  private enum Token: Hashable, Sendable {
    case literal(Unicode.Scalar)
    case anyOne
    case anyRun
    case set(ranges: [ClosedRange<UInt32>], negated: Bool)
    /// `**` standing alone as a component.
    case anyComponents
  }

  /// Parses a pattern.
  ///
  /// - Parameter text: The glob, such as `pages/*.txt` or `**/.DS_Store`.
  /// - Throws: ``PackagingError`` (`invalid-pattern`) for an empty pattern or an unclosed `[`.
  public init(_ text: String) throws {
    self.text = text
    var body = Substring(text)
    while body.hasSuffix("/") && !body.hasSuffix("\\/") { body = body.dropLast() }
    let leadingSlash = body.hasPrefix("/")
    while body.hasPrefix("/") { body = body.dropFirst() }
    guard !body.isEmpty else {
      throw PackagingError(.invalidPattern, "the pattern '\(text)' matches no name")
    }
    var components: [[Token]] = []
    var current: [Token] = []
    var scalars = Array(body.unicodeScalars)[...]
    var sawSlash = false
    while let scalar = scalars.popFirst() {
      switch scalar {
      case "/":
        sawSlash = true
        components.append(current)
        current = []
      case "\\":
        guard let next = scalars.popFirst() else {
          throw PackagingError(.invalidPattern, "the pattern '\(text)' ends with a lone '\\'")
        }
        current.append(.literal(next))
      case "?":
        current.append(.anyOne)
      case "*":
        if current.last != .anyRun { current.append(.anyRun) }
        if scalars.first == "*" {
          scalars = scalars.drop { $0 == "*" }
          current.removeLast()
          current.append(.anyComponents)
        }
      case "[":
        current.append(try Self.parseSet(&scalars, pattern: text))
      default:
        current.append(.literal(scalar))
      }
    }
    components.append(current)
    // `**` is special only as a whole component; elsewhere it is `*`.
    self.components = components.map { tokens in
      tokens == [.anyComponents] ? tokens : tokens.map { $0 == .anyComponents ? .anyRun : $0 }
    }
    anchored = sawSlash || leadingSlash
  }

  public var description: String { text }

  /// Whether the pattern matches a path or one of its ancestors.
  ///
  /// - Parameter path: A `/`-separated relative path (`pages/a.txt`).
  /// - Returns: `true` when the path, or a folder above it, matches.
  public func matches(_ path: String) -> Bool {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map {
      Array($0.unicodeScalars)
    }
    guard !parts.isEmpty else { return false }
    for end in 1...parts.count {
      let prefix = parts[0..<end]
      if anchored {
        if Self.match(components[...], prefix) { return true }
      } else if let last = prefix.last, Self.matchComponent(components[0][...], last[...]) {
        return true
      }
    }
    return false
  }

  private static func match(_ pattern: ArraySlice<[Token]>, _ path: ArraySlice<[Unicode.Scalar]>)
    -> Bool
  {
    guard let first = pattern.first else { return path.isEmpty }
    if first == [.anyComponents] {
      let rest = pattern.dropFirst()
      for skip in 0...path.count where match(rest, path.dropFirst(skip)) { return true }
      return false
    }
    guard let component = path.first, matchComponent(first[...], component[...]) else {
      return false
    }
    return match(pattern.dropFirst(), path.dropFirst())
  }

  private static func matchComponent(
    _ tokens: ArraySlice<Token>, _ name: ArraySlice<Unicode.Scalar>
  )
    -> Bool
  {
    guard let token = tokens.first else { return name.isEmpty }
    switch token {
    case .anyRun, .anyComponents:
      let rest = tokens.dropFirst()
      for skip in 0...name.count where matchComponent(rest, name.dropFirst(skip)) { return true }
      return false
    case .anyOne:
      return !name.isEmpty && matchComponent(tokens.dropFirst(), name.dropFirst())
    case .literal(let scalar):
      return name.first == scalar && matchComponent(tokens.dropFirst(), name.dropFirst())
    case .set(let ranges, let negated):
      guard let scalar = name.first else { return false }
      let inside = ranges.contains { $0.contains(scalar.value) }
      return inside != negated && matchComponent(tokens.dropFirst(), name.dropFirst())
    }
  }

  private static func parseSet(_ scalars: inout ArraySlice<Unicode.Scalar>, pattern: String) throws
    -> Token
  {
    var negated = false
    if scalars.first == "!" || scalars.first == "^" {
      negated = true
      scalars = scalars.dropFirst()
    }
    var ranges: [ClosedRange<UInt32>] = []
    var first = true
    while let scalar = scalars.popFirst() {
      if scalar == "]" && !first { return .set(ranges: ranges, negated: negated) }
      first = false
      var low = scalar
      if low == "\\", let escaped = scalars.popFirst() { low = escaped }
      if scalars.first == "-", scalars.dropFirst().first.map({ $0 != "]" }) == true {
        scalars = scalars.dropFirst()
        var high = scalars.popFirst()!
        if high == "\\", let escaped = scalars.popFirst() { high = escaped }
        guard low.value <= high.value else {
          throw PackagingError(
            .invalidPattern, "the pattern '\(pattern)' has a backwards range '\(low)-\(high)'")
        }
        ranges.append(low.value...high.value)
      } else {
        ranges.append(low.value...low.value)
      }
    }
    throw PackagingError(.invalidPattern, "the pattern '\(pattern)' has a '[' without its ']'")
  }
}
