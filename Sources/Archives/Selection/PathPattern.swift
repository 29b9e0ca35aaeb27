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
    var steps = 0
    return matches(path, steps: &steps)
  }

  /// Matches like ``matches(_:)``, adding to `steps` one per token tried
  /// against a character, so tests can bound the work without timing it.
  ///
  /// The work is at most about pattern length × path length: `**` is walked
  /// as a set of live pattern positions (an NFA), never by backtracking.
  func matches(_ path: String, steps: inout Int) -> Bool {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map {
      Array($0.unicodeScalars)
    }
    guard !parts.isEmpty else { return false }
    guard anchored else {
      return parts.contains { Self.matchComponent(components[0], $0, steps: &steps) }
    }
    // live[i]: the components before i have matched the path read so far.
    var live = [Bool](repeating: false, count: components.count + 1)
    live[0] = true
    closeOverDoubleStars(&live)
    for part in parts {
      var next = [Bool](repeating: false, count: live.count)
      for index in components.indices where live[index] {
        if components[index] == [.anyComponents] {
          next[index] = true
        } else if Self.matchComponent(components[index], part, steps: &steps) {
          next[index + 1] = true
        }
      }
      closeOverDoubleStars(&next)
      // Reaching the end on a prefix means an ancestor (or the path) matched.
      if next[components.count] { return true }
      live = next
      guard live.contains(true) else { return false }
    }
    return false
  }

  /// Lets a live `**` also stand for no component at all.
  private func closeOverDoubleStars(_ live: inout [Bool]) {
    for index in components.indices where live[index] && components[index] == [.anyComponents] {
      live[index + 1] = true
    }
  }

  /// Matches one component with the two-pointer star algorithm: on a
  /// mismatch only the latest `*` is retried one character further, so the
  /// work is at most tokens × name.
  private static func matchComponent(
    _ tokens: [Token], _ name: [Unicode.Scalar], steps: inout Int
  ) -> Bool {
    var token = 0
    var char = 0
    var lastStar: Int?
    var starChar = 0
    while char < name.count {
      steps += 1
      if token < tokens.count, tokens[token] == .anyRun || tokens[token] == .anyComponents {
        lastStar = token
        starChar = char
        token += 1
      } else if token < tokens.count, Self.single(tokens[token], matches: name[char]) {
        token += 1
        char += 1
      } else if let star = lastStar {
        token = star + 1
        starChar += 1
        char = starChar
      } else {
        return false
      }
    }
    while token < tokens.count, tokens[token] == .anyRun || tokens[token] == .anyComponents {
      steps += 1
      token += 1
    }
    return token == tokens.count
  }

  /// Whether a one-character token accepts a character.
  private static func single(_ token: Token, matches scalar: Unicode.Scalar) -> Bool {
    switch token {
    case .anyRun, .anyComponents: return false
    case .anyOne: return true
    case .literal(let literal): return literal == scalar
    case .set(let ranges, let negated):
      return ranges.contains { $0.contains(scalar.value) } != negated
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
