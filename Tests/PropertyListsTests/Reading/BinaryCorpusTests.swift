import FolioTestSupport
import Foundation
import PropertyLists
import Testing

@Suite struct BinaryCorpusTests {
  static let corpus: [URL] = XMLCorpusTests.corpus.filter {
    XMLCorpusTests.refused[$0.lastPathComponent] == nil
  }

  @Test(arguments: corpus)
  func readsFoundationsBinaryOutput(_ url: URL) throws {
    let xml = try Data(contentsOf: url)
    let object = try PropertyListSerialization.propertyList(from: xml, options: [], format: nil)
    let binary = try PropertyListSerialization.data(
      fromPropertyList: object, format: .binary, options: 0)
    let document = try PropertyListReader.read(binary, file: url.lastPathComponent)
    #expect(document.format == .binary)
    #expect(PlainValue(document.root) == PlainValue(foundation: object))
    #expect(document.root.location?.byteOffset != nil)
  }
}
