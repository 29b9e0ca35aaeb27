import Foundation
import PropertyLists
import Testing
import TypeValidation
import UniformTypes

@Suite struct InfoPlistPreprocessorTests {
  static func process(_ text: String, _ definitions: [String: String] = [:]) throws -> String {
    String(
      decoding: try InfoPlistPreprocessor(definitions: definitions).process(
        Data(text.utf8), file: "T"), as: UTF8.self)
  }

  @Test func conditionalsKeepTheirBranchAndEveryLine() throws {
    let text = """
      a
      #if defined(X) && VERSION >= 2
      b
      #elif !defined X
      c
      #else
      d
      #endif
      e
      """
    #expect(try Self.process(text, ["X": "1", "VERSION": "3"]) == "a\n\nb\n\n\n\n\n\ne")
    #expect(try Self.process(text, ["X": "1", "VERSION": "1"]) == "a\n\n\n\n\n\nd\n\ne")
    #expect(try Self.process(text) == "a\n\n\n\nc\n\n\n\ne")
  }

  @Test func macrosAreReplacedOutsideQuotesAndRescanned() throws {
    let text = """
      #define NAME PRODUCT
      #define PRODUCT Folio
      <string>NAME "NAME" NAME_X</string>
      """
    #expect(try Self.process(text) == "\n\n<string>Folio \"NAME\" NAME_X</string>")
    #expect(try Self.process("#define SELF SELF more\nSELF") == "\nSELF more")
  }

  @Test func expressionsFollowCPrecedence() throws {
    for (expression, expected) in [
      ("1 + 2 * 3 == 7", true), ("(1 + 2) * 3 == 7", false), ("0x10 == 16", true),
      ("010 == 8", true), ("5 / 2 == 2 && 5 % 2 == 1", true), ("1 ? 0 : 1", false),
      ("UNDEFINED == 0", true), ("~0 == -1", true), ("1 << 4 == 16", true), ("!1", false),
      ("2 > 1 || 1 / 0", true),
    ] {
      let kept = try Self.process("#if \(expression)\nyes\n#endif") == "\nyes\n"
      #expect(kept == expected, "\(expression)")
    }
  }

  @Test(arguments: [
    ("#include \"Shared.h\"", 1, "names a file Folio cannot follow"),
    ("#if 1\nno end", 1, "has no #endif"),
    ("#endif", 1, "#endif without #if"),
    ("#if 1\n#else\n#else\n#endif", 3, "#else without #if"),
    ("#define F(x) x", 1, "function-like macro"),
    ("#if 1 / 0\n#endif", 1, "division by zero"),
    ("#error stop here", 1, "#error stop here"),
    ("#frobnicate", 1, "unknown directive #frobnicate"),
  ])
  func whatItCannotDoIsRefusedNamingTheLine(_ text: String, _ line: Int, _ phrase: String) {
    let error = #expect(throws: UniformTypeError.self) { try Self.process(text) }
    #expect(error?.code == .preprocessingFailed)
    #expect(error?.location?.line == line, "\(text)")
    #expect(error?.message.contains(phrase) == true, "\(error?.message ?? "")")
  }

  @Test func deepNestingIsRefusedNotRecursedInto() {
    let text = String(repeating: "#if 1\n", count: 100) + String(repeating: "#endif\n", count: 100)
    #expect(throws: UniformTypeError.self) { try Self.process(text) }
    let expression =
      "#if " + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
    #expect(throws: UniformTypeError.self) { try Self.process(expression + "\n#endif") }
  }

  @Test func templatesAreRecognisedByTheirFirstDirective() {
    #expect(
      BuildTemplate.detect(in: Data("<plist>\n<dict>\n#ifdef BETA\n".utf8))
        == BuildTemplate(processor: .cPreprocessor, directive: "#ifdef", line: 3))
    #expect(
      BuildTemplate.detect(in: Data("dnl comment\nchangequote(<<, >>)dnl\n".utf8))?.processor == .m4
    )
    #expect(BuildTemplate.detect(in: Data("<plist><string>#1 fan</string></plist>".utf8)) == nil)
    #expect(BuildTemplate.detect(in: Data("<plist>\n<string>dnlx</string>\n".utf8)) == nil)
  }
}
