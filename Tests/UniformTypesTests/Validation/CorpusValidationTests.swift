import FolioTestSupport
import Foundation
import PropertyLists
import Testing
import UniformTypes

/// Validates every property list of the shared corpus against a checked-in table of counts.
///
/// The table holds the errors and warnings per file, so any change that
/// shifts them is seen in review. Re-record the table with
/// `FOLIO_RECORD_CORPUS_COUNTS=1 swift test --filter CorpusValidationTests`.
@Suite struct CorpusValidationTests {
  static let table = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/corpus-validation-counts.tsv")

  @Test func everyCorpusFileValidatesWithTheRecordedCounts() throws {
    let files = try ProjectPaths.plistCorpusFiles()
    #expect(files.count >= 37)
    var lines = ["# file\terrors\twarnings\tcodes"]
    for file in files {
      let report = try TypeDeclarationValidator().validate(
        [.init(url: file, displayName: file.lastPathComponent)])
      for diagnostic in report.diagnostics {
        #expect(diagnostic.location?.file == file.lastPathComponent)
        #expect(!diagnostic.message.isEmpty)
      }
      let codes = Set(report.diagnostics.map(\.code)).sorted().joined(separator: ",")
      lines.append(
        "\(file.lastPathComponent)\t\(report.errorCount)\t\(report.warningCount)\t\(codes)")
    }
    let actual = lines.joined(separator: "\n") + "\n"
    if ProcessInfo.processInfo.environment["FOLIO_RECORD_CORPUS_COUNTS"] == "1" {
      try Data(actual.utf8).write(to: Self.table)
      return
    }
    let expected = try String(contentsOf: Self.table, encoding: .utf8)
    let expectedLines = expected.split(separator: "\n").map(String.init)
    let actualLines = actual.split(separator: "\n").map(String.init)
    for (index, line) in actualLines.enumerated() {
      #expect(index < expectedLines.count && expectedLines[index] == line, "now: \(line)")
    }
    #expect(expectedLines.count == actualLines.count)
  }

  @Test func knownCorpusProblemsAreFound() throws {
    func codes(_ name: String) throws -> [String: Int] {
      let url = ProjectPaths.plistCorpus.appendingPathComponent(name)
      let report = try TypeDeclarationValidator().validate([.init(url: url, displayName: name)])
      return report.diagnostics.reduce(into: [:]) { $0[$1.code, default: 0] += 1 }
    }
    // From the corpus notes (SOURCES.tsv): each file's documented mistake is reported.
    #expect(try codes("macvim-dev__macvim__src__MacVim__Info.plist")["conformance-cycle"] == 1)
    #expect(try codes("macvim-dev__macvim__src__MacVim__Info.plist")["invalid-identifier"] != nil)
    #expect(try codes("iina__iina__iina__Info.plist")["invalid-identifier"] == 2)
    #expect(try codes("transmission__transmission__macosx__Info.plist")["unknown-supertype"] == 1)
    #expect(
      try codes("textmate__textmate__Applications__TextMate__Info.plist")["duplicate-identifier"]
        == 1)
    #expect(
      try codes("Ranchero-Software__NetNewsWire__iOS__Resources__Info.plist")[
        "exported-and-imported"] == 1)
    #expect(try codes("adium__adium__Resources__Info copy.plist")["data-and-package"] != nil)
    #expect(
      try codes("sequelpro__sequelpro__Resources__Plists__Info.plist")["invalid-ostype"] != nil)
    #expect(
      try codes("Hammerspoon__hammerspoon__Hammerspoon__Hammerspoon-Info.plist")["wrong-value-type"]
        != nil)
    #expect(try codes("MacPass__MacPass__MacPass__MacPass-Info.plist")["empty-declaration"] == 1)
    #expect(try codes("rsms__kod__resources__Info.plist")["unreadable-file"] == 1)
  }
}
