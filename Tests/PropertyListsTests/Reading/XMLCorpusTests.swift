import FolioTestSupport
import Foundation
import PropertyLists
import Testing

@Suite struct XMLCorpusTests {
  static let corpus: [URL] = (try? ProjectPaths.plistCorpusFiles()) ?? []

  /// Corpus files that are not XML, binary or JSON property lists, and the error Folio gives.
  static let refused: [String: PropertyListError.Code] = [
    "rsms__kod__resources__Info.plist": .unsupportedFormat,
    "Aegisub__Aegisub__packages__osx_bundle__Contents__Info.plist": .unexpectedText,
  ]

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
    #expect(document.format == .xml)
    let expected = try foundationPlainValue(data)
    #expect(PlainValue(document.root) == expected)
  }
}
