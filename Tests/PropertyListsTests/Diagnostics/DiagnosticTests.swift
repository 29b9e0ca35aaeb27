import FolioSystem
import PropertyLists
import Testing

@Suite struct DiagnosticTests {
  @Test func locationPrintsLikeACompiler() {
    #expect(
      SourceLocation(file: "Info.plist", line: 12, column: 5).description == "Info.plist:12:5")
    #expect(SourceLocation(file: "Info.plist", line: 12).description == "Info.plist:12")
    #expect(SourceLocation(file: "a.plist", byteOffset: 40).description == "a.plist@40")
  }

  @Test func diagnosticCarriesSeverityMessageAndCode() {
    let diagnostic = Diagnostic(
      severity: .warning, code: "FOLIO-TEST", message: "something odd",
      location: SourceLocation(file: "x.plist", line: 3, column: 1))
    #expect(diagnostic.description == "x.plist:3:1: warning: something odd [FOLIO-TEST]")
    #expect(Diagnostic.Severity.error > .warning)
  }

  @Test func valuesCompareByContentNotLocation() {
    let a = PropertyListValue(.string("x"), location: SourceLocation(file: "a", line: 1))
    let b = PropertyListValue(.string("x"), location: SourceLocation(file: "b", line: 9))
    #expect(a == b)
    let dict = PropertyListValue(
      .dictionary([
        .init(key: "k", value: a), .init(key: "k", value: PropertyListValue(.integer(2))),
      ]))
    #expect(dict["k"] == PropertyListValue(.integer(2)))
  }
}
