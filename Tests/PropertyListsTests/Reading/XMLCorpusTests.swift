import FolioTestSupport
import Foundation
import PropertyLists
import Testing

@Suite struct XMLCorpusTests {
  static let corpus: [URL] = (try? ProjectPaths.plistCorpusFiles()) ?? []

  /// Corpus files that are not property lists until a build processes them, and the error
  /// Folio gives (Foundation refuses them too).
  static let refused: [String: PropertyListError.Code] = [
    "Aegisub__Aegisub__packages__osx_bundle__Contents__Info.plist": .unexpectedText,
    // A CMake template whose @ENV@ stands for XML the build inserts.
    "Ardour__ardour__tools__osx_packaging__Info.plist.in.plist": .unexpectedText,
    // An m4 template (its first lines are `dnl`).
    "HandBrake__HandBrake__macosx__Info.plist.m4.plist": .malformedOpenStep,
  ]

  /// Corpus files in the old OpenStep form.
  static let openStep: Set<String> = ["rsms__kod__resources__Info.plist"]

  @Test func corpusIsPresent() {
    #expect(Self.corpus.count >= 30)
  }

  @Test(arguments: corpus)
  func readsLikeFoundation(_ url: URL) throws {
    let data = try Data(contentsOf: url)
    let name = url.lastPathComponent
    if let code = Self.refused[name] {
      let error = #expect(throws: PropertyListError.self) {
        try PropertyListReader.read(data, file: name)
      }
      #expect(error?.code == code)
      #expect(error?.location?.line != nil)
      return
    }
    let document = try PropertyListReader.read(data, file: name)
    #expect(document.format == (Self.openStep.contains(name) ? .openStep : .xml))
    let expected = try foundationPlainValue(data)
    #expect(PlainValue(document.root) == expected)
  }
}
