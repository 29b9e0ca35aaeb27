public import FoundationEssentials
import UniformTypes

/// A file that a build turns into an Info.plist: C preprocessor directives (Xcode's
/// `INFOPLIST_PREPROCESS`) or m4 macros, found on a line of their own.
public struct BuildTemplate: Sendable, Hashable {
  /// Which processor the file is written for.
  public enum Processor: String, Sendable, Hashable {
    /// `#if`, `#ifdef`, `#include`, `#define` … lines, as Xcode's Info.plist preprocessing reads.
    case cPreprocessor = "C preprocessor"
    /// `dnl`, `changequote(…)`, `include(…)` lines, as m4 reads.
    case m4
    /// A line that is only an `@NAME@` placeholder, which CMake's `configure_file` replaces with
    /// markup (a placeholder inside a value is a build variable, not a template).
    case cmake = "CMake configure_file"
  }

  /// The processor the file needs.
  public var processor: Processor
  /// The first directive as written (`#ifdef`, `dnl`).
  public var directive: String
  /// Its 1-based line.
  public var line: Int

  /// Describes a template.
  ///
  /// - Parameters:
  ///   - processor: The processor the file needs.
  ///   - directive: The first directive as written.
  ///   - line: Its 1-based line.
  public init(processor: Processor, directive: String, line: Int) {
    self.processor = processor
    self.directive = directive
    self.line = line
  }

  /// C preprocessor directives that mark a template.
  static let cDirectives: Set<String> = [
    "if", "ifdef", "ifndef", "elif", "else", "endif", "include", "import", "define", "undef",
    "error", "warning", "pragma", "line",
  ]

  /// Finds the first line that only a build's processor understands.
  ///
  /// - Parameter data: The file's bytes.
  /// - Returns: The template's processor and first directive, or `nil` when no line holds one.
  public static func detect(in data: Data) -> BuildTemplate? {
    guard !data.starts(with: Data("bplist".utf8)) else { return nil }
    let text = String(decoding: data, as: UTF8.self)
    var number = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      number += 1
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.hasPrefix("#") {
        let word = trimmed.dropFirst().drop { $0 == " " || $0 == "\t" }.prefix {
          $0.isLetter
        }
        if cDirectives.contains(String(word)) {
          return BuildTemplate(processor: .cPreprocessor, directive: "#" + word, line: number)
        }
      }
      if let placeholder = cmakePlaceholderLine(trimmed) {
        return BuildTemplate(processor: .cmake, directive: placeholder, line: number)
      }
      for macro in ["dnl", "changequote(", "divert(", "include(", "define("]
      where trimmed.hasPrefix(macro) {
        let rest = trimmed.dropFirst(macro.count)
        if macro != "dnl" || rest.isEmpty || rest.first == " " || rest.first == "\t"
          || rest.first == "\r"
        {
          return BuildTemplate(
            processor: .m4, directive: macro.hasSuffix("(") ? String(macro.dropLast()) : macro,
            line: number)
        }
      }
    }
    return nil
  }

  /// `@NAME@` when the line holds only that (and whitespace).
  private static func cmakePlaceholderLine(_ line: Substring) -> String? {
    var text = line
    while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
    guard text.count > 2, text.first == "@", text.last == "@" else { return nil }
    let name = text.dropFirst().dropLast()
    guard name.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }) else {
      return nil
    }
    return String(text)
  }
}
