import FolioTestSupport
import Foundation
import PropertyLists
import Testing

@Suite struct JSONCorpusTests {
  /// JSON keeps no difference between `3` and `3.0`; compare integral reals as integers.
  static func jsonNormalized(_ value: PlainValue) -> PlainValue {
    switch value {
    case .real(let number) where number.rounded() == number && abs(number) < 9e15:
      return .integer(Int64(number))
    case .array(let items): return .array(items.map(jsonNormalized))
    case .dictionary(let entries): return .dictionary(entries.mapValues(jsonNormalized))
    default: return value
    }
  }

  @Test func corpusAgreesWithPlutilsJSONBothWays() async throws {
    try await withTemporaryDirectory("json") { directory in
      var compared = 0
      for url in BinaryCorpusTests.corpus {
        let original = try PropertyListReader.read(contentsOf: url).root
        let output = directory.appendingPathComponent("theirs.json")
        let theirs = try runProcess(plutilPath, ["-convert", "json", "-o", output.path, url.path])
        let ours = Result { try PropertyListWriter.data(for: original, format: .json) }
        guard theirs.status == 0 else {
          // plutil refuses dates and data; so does Folio.
          #expect(throws: PropertyListError.self) { try ours.get() }
          continue
        }
        compared += 1
        // Their JSON, read by Folio, holds the same values as the XML.
        let theirDocument = try PropertyListReader.read(contentsOf: output)
        #expect(theirDocument.format == .json)
        #expect(
          Self.jsonNormalized(PlainValue(theirDocument.root))
            == Self.jsonNormalized(PlainValue(original)), "\(url.lastPathComponent)")
        // Our JSON, read by Foundation's JSONSerialization, equals theirs read the same way.
        let ourObject = try JSONSerialization.jsonObject(with: try ours.get())
        let theirObject = try JSONSerialization.jsonObject(with: Data(contentsOf: output))
        #expect(
          PlainValue(foundation: ourObject).map(Self.jsonNormalized)
            == PlainValue(foundation: theirObject).map(Self.jsonNormalized),
          "\(url.lastPathComponent)")
      }
      #expect(compared >= 20)
    }
  }
}
