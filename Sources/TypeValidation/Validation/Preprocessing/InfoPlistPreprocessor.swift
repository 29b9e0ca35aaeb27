import FolioSystem
public import FoundationEssentials
import PropertyLists
import UniformTypes

/// The C preprocessor's conditionals and object-like macros, as Xcode's `INFOPLIST_PREPROCESS`
/// applies them to an Info.plist, keeping every line where it was.
///
/// Supported: `#if`/`#elif` with integer expressions (`defined NAME`, `defined(NAME)`, the C
/// operators from `!` to `?:`, macros expanded, unknown names 0), `#ifdef`, `#ifndef`, `#else`,
/// `#endif`, `#define NAME value`, `#undef`, and `#warning`/`#pragma`/`#line` (ignored). Defined
/// names are replaced in the kept lines outside double quotes, as the preprocessor does. A
/// directive line, and every line a false condition skips, becomes an empty line, so line
/// numbers in diagnostics are the template's own. Refused, naming the line: `#include` and
/// `#import` (the file is not at hand), function-like macros, `#error`, and unbalanced
/// conditionals.
public struct InfoPlistPreprocessor: Sendable {
  /// The macros defined before the first line (`-D NAME=VALUE`).
  public var definitions: [String: String]
  /// The deepest nesting of conditionals and of macro expansion accepted.
  public static let maximumDepth = 64

  /// Creates a preprocessor.
  ///
  /// - Parameter definitions: Macros defined before the first line.
  public init(definitions: [String: String] = [:]) {
    self.definitions = definitions
  }

  /// Preprocesses a template.
  ///
  /// - Parameters:
  ///   - data: The template's bytes (UTF-8).
  ///   - file: The name used in error locations.
  /// - Returns: The processed bytes, with the same number of lines.
  /// - Throws: ``UniformTypeError`` with `preprocessing-failed`, located at the offending line.
  public func process(_ data: Data, file: String) throws -> Data {
    var macros = definitions
    var output = ""
    output.reserveCapacity(data.count)
    /// One open conditional: whether its current branch is kept, whether any branch was, and
    /// whether `#else` was seen.
    struct Frame {
      var active: Bool
      var taken: Bool
      var sawElse: Bool
      var line: Int
    }
    var stack: [Frame] = []
    var number = 0
    let text = String(decoding: data, as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for (position, line) in lines.enumerated() {
      number += 1
      let newline = position == lines.count - 1 ? "" : "\n"
      let active = stack.allSatisfy(\.active)
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      guard trimmed.hasPrefix("#") else {
        output += active ? expand(String(line), macros: macros) : ""
        output += newline
        continue
      }
      let body = trimmed.dropFirst().drop { $0 == " " || $0 == "\t" }
      let directive = String(body.prefix { $0.isLetter })
      let argument = body.dropFirst(directive.count).trimming(while: {
        $0.isWhitespace && !$0.isNewline
      })
      func failure(_ message: String) -> UniformTypeError {
        UniformTypeError(
          .preprocessingFailed, message, location: SourceLocation(file: file, line: number))
      }
      switch directive {
      case "if", "ifdef", "ifndef":
        guard stack.count < Self.maximumDepth else {
          throw failure("conditionals nest deeper than \(Self.maximumDepth) levels")
        }
        var condition = false
        if active {
          switch directive {
          case "ifdef": condition = macros[Self.name(argument)] != nil
          case "ifndef": condition = macros[Self.name(argument)] == nil
          default: condition = try evaluate(argument, macros: macros, failure: failure) != 0
          }
        }
        stack.append(Frame(active: condition, taken: condition, sawElse: false, line: number))
      case "elif":
        guard var frame = stack.popLast(), !frame.sawElse else {
          throw failure("#elif without #if")
        }
        let outer = stack.allSatisfy(\.active)
        if frame.taken || !outer {
          frame.active = false
        } else {
          frame.active = try evaluate(argument, macros: macros, failure: failure) != 0
          frame.taken = frame.active
        }
        stack.append(frame)
      case "else":
        guard var frame = stack.popLast(), !frame.sawElse else {
          throw failure("#else without #if")
        }
        frame.active = !frame.taken
        frame.taken = true
        frame.sawElse = true
        stack.append(frame)
      case "endif":
        guard stack.popLast() != nil else { throw failure("#endif without #if") }
      case "define" where active:
        let name = Self.name(argument)
        guard !name.isEmpty else { throw failure("#define without a name") }
        let rest = argument.dropFirst(name.count)
        if rest.hasPrefix("(") {
          throw failure(
            "the function-like macro \(name)(…) is not supported; define it with a value")
        }
        macros[name] = rest.trimming(while: { $0.isWhitespace && !$0.isNewline })
      case "undef" where active:
        macros[Self.name(argument)] = nil
      case "include" where active, "import" where active:
        throw failure(
          "#\(directive) \(DiagnosticText.escaped(argument)) names a file Folio cannot follow")
      case "error" where active:
        throw failure("#error \(DiagnosticText.escaped(argument))")
      case "define", "undef", "include", "import", "error", "warning", "pragma", "line", "":
        // Skipped by a false condition, or ignored (#warning, #pragma, #line).
        break
      default:
        if active { throw failure("unknown directive #\(DiagnosticText.escaped(directive))") }
      }
      output += newline
    }
    if let open = stack.last {
      throw UniformTypeError(
        .preprocessingFailed, "the conditional opened at line \(open.line) has no #endif",
        location: SourceLocation(file: file, line: open.line))
    }
    return Data(output.utf8)
  }

  /// The identifier at the start of a directive's argument.
  static func name(_ text: some StringProtocol) -> String {
    String(text.prefix { $0 == "_" || $0.isASCII && ($0.isLetter || $0.isNumber) })
  }

  /// Replaces defined names outside double quotes, rescanning replacements (not recursively
  /// into the same name, as the preprocessor does).
  func expand(_ line: String, macros: [String: String], depth: Int = 0, hiding: Set<String> = [])
    -> String
  {
    guard !macros.isEmpty, depth < Self.maximumDepth else { return line }
    var result = ""
    var inQuotes = false
    var index = line.startIndex
    while index < line.endIndex {
      let character = line[index]
      if character == "\"" { inQuotes.toggle() }
      if !inQuotes, character == "_" || (character.isASCII && character.isLetter) {
        let end =
          line[index...].firstIndex {
            !($0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)))
          } ?? line.endIndex
        let word = String(line[index..<end])
        if let value = macros[word], !hiding.contains(word) {
          result += expand(value, macros: macros, depth: depth + 1, hiding: hiding.union([word]))
        } else {
          result += word
        }
        index = end
        continue
      }
      result.append(character)
      index = line.index(after: index)
    }
    return result
  }

  /// Evaluates a `#if` expression.
  func evaluate(
    _ expression: String, macros: [String: String],
    failure: @escaping (String) -> UniformTypeError
  ) throws -> Int64 {
    var parser = ConditionParser(
      tokens: try ConditionParser.tokens(of: expression, failure: failure), macros: macros,
      preprocessor: self, failure: failure)
    let value = try parser.conditional(depth: 0)
    guard parser.position == parser.tokens.count else {
      throw failure("unexpected \(parser.tokens[parser.position]) in #if \(expression)")
    }
    return value
  }
}

/// A precedence-climbing parser for `#if` expressions over 64-bit integers.
private struct ConditionParser {
  var tokens: [String]
  var position = 0
  /// Above zero while parsing an operand that short-circuiting leaves unevaluated (the right of
  /// `1 || …`), where C raises no error for a division by zero.
  var unevaluated = 0
  let macros: [String: String]
  let preprocessor: InfoPlistPreprocessor
  let failure: (String) -> UniformTypeError

  init(
    tokens: [String], macros: [String: String], preprocessor: InfoPlistPreprocessor,
    failure: @escaping (String) -> UniformTypeError
  ) {
    self.tokens = tokens
    self.macros = macros
    self.preprocessor = preprocessor
    self.failure = failure
  }

  static let operators = [
    "||", "&&", "==", "!=", "<=", ">=", "<<", ">>", "|", "^", "&", "<", ">", "+", "-", "*", "/",
    "%", "!", "~", "(", ")", "?", ":",
  ]

  static func tokens(of text: String, failure: (String) -> UniformTypeError) throws -> [String] {
    var tokens: [String] = []
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if character.isWhitespace {
        index = text.index(after: index)
        continue
      }
      if character.isASCII && (character.isLetter || character.isNumber || character == "_") {
        let end =
          text[index...].firstIndex {
            !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_"))
          } ?? text.endIndex
        tokens.append(String(text[index..<end]))
        index = end
        continue
      }
      if text[index...].hasPrefix("//") { break }
      guard let symbol = operators.first(where: { text[index...].hasPrefix($0) }) else {
        throw failure("unexpected '\(DiagnosticText.escaped(String(character)))' in #if \(text)")
      }
      tokens.append(symbol)
      index = text.index(index, offsetBy: symbol.count)
    }
    return tokens
  }

  // Binary operators by precedence, lowest first.
  static let levels: [[String]] = [
    ["||"], ["&&"], ["|"], ["^"], ["&"], ["==", "!="], ["<", ">", "<=", ">="], ["<<", ">>"],
    ["+", "-"], ["*", "/", "%"],
  ]

  mutating func conditional(depth: Int) throws -> Int64 {
    guard depth < InfoPlistPreprocessor.maximumDepth else {
      throw failure("the #if expression nests too deeply")
    }
    let condition = try binary(level: 0, depth: depth)
    guard peek == "?" else { return condition }
    position += 1
    if condition == 0 { unevaluated += 1 }
    let yes = try conditional(depth: depth + 1)
    if condition == 0 { unevaluated -= 1 }
    guard peek == ":" else { throw failure("'?' without ':' in #if") }
    position += 1
    if condition != 0 { unevaluated += 1 }
    let no = try conditional(depth: depth + 1)
    if condition != 0 { unevaluated -= 1 }
    return condition != 0 ? yes : no
  }

  var peek: String? { position < tokens.count ? tokens[position] : nil }

  mutating func binary(level: Int, depth: Int) throws -> Int64 {
    guard level < Self.levels.count else { return try unary(depth: depth) }
    var left = try binary(level: level + 1, depth: depth)
    while let token = peek, Self.levels[level].contains(token) {
      position += 1
      let shortCircuits = (token == "||" && left != 0) || (token == "&&" && left == 0)
      if shortCircuits { unevaluated += 1 }
      let right = try binary(level: level + 1, depth: depth)
      if shortCircuits { unevaluated -= 1 }
      switch token {
      case "||": left = (left != 0 || right != 0) ? 1 : 0
      case "&&": left = (left != 0 && right != 0) ? 1 : 0
      case "|": left |= right
      case "^": left ^= right
      case "&": left &= right
      case "==": left = left == right ? 1 : 0
      case "!=": left = left != right ? 1 : 0
      case "<": left = left < right ? 1 : 0
      case ">": left = left > right ? 1 : 0
      case "<=": left = left <= right ? 1 : 0
      case ">=": left = left >= right ? 1 : 0
      case "<<": left = right >= 0 && right < 64 ? left << right : 0
      case ">>": left = right >= 0 && right < 64 ? left >> right : 0
      case "+": left = left &+ right
      case "-": left = left &- right
      case "*": left = left &* right
      default:
        if right == 0 || (left == .min && right == -1) {
          guard unevaluated > 0 else {
            throw failure(right == 0 ? "division by zero in #if" : "overflow in #if")
          }
          left = 0
        } else {
          left = token == "/" ? left / right : left % right
        }
      }
    }
    return left
  }

  mutating func unary(depth: Int) throws -> Int64 {
    guard depth < InfoPlistPreprocessor.maximumDepth else {
      throw failure("the #if expression nests too deeply")
    }
    guard let token = peek else { throw failure("the #if expression ends early") }
    position += 1
    switch token {
    case "!": return try unary(depth: depth + 1) == 0 ? 1 : 0
    case "~": return ~(try unary(depth: depth + 1))
    case "-": return 0 &- (try unary(depth: depth + 1))
    case "+": return try unary(depth: depth + 1)
    case "(":
      let value = try conditional(depth: depth + 1)
      guard peek == ")" else { throw failure("missing ')' in #if") }
      position += 1
      return value
    case "defined":
      let parenthesised = peek == "("
      if parenthesised { position += 1 }
      guard let name = peek, InfoPlistPreprocessor.name(name) == name, !name.isEmpty else {
        throw failure("'defined' needs a name")
      }
      position += 1
      if parenthesised {
        guard peek == ")" else { throw failure("missing ')' after defined(\(name)") }
        position += 1
      }
      return macros[name] != nil ? 1 : 0
    default:
      if let first = token.first, first.isNumber { return try number(token) }
      guard InfoPlistPreprocessor.name(token) == token else {
        throw failure("unexpected \(token) in #if")
      }
      guard let value = macros[token] else { return 0 }
      // A macro's value is itself an expression.
      var inner = ConditionParser(
        tokens: try Self.tokens(of: value, failure: failure),
        macros: macros.filter {
          $0.key != token
        }, preprocessor: preprocessor, failure: failure)
      if inner.tokens.isEmpty { return 0 }
      let result = try inner.conditional(depth: depth + 1)
      guard inner.position == inner.tokens.count else {
        throw failure("the value of \(token) is not an integer expression")
      }
      return result
    }
  }

  func number(_ token: String) throws -> Int64 {
    var digits = Substring(token)
    while let last = digits.last, "uUlL".contains(last) { digits.removeLast() }
    let value: Int64?
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
      value = Int64(digits.dropFirst(2), radix: 16)
    } else if digits.count > 1, digits.hasPrefix("0") {
      value = Int64(digits.dropFirst(), radix: 8)
    } else {
      value = Int64(digits)
    }
    guard let value else { throw failure("\(token) is not an integer") }
    return value
  }
}
