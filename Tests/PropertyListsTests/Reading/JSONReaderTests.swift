import FolioSystem
import Foundation
import PropertyLists
import Testing

@Suite struct JSONReaderTests {
  @Test func readsObjectsWithPositions() throws {
    let text = """
      {
        "name": "Folio \\u00e9\\ud83d\\ude00",
        "count": -3,
        "big": 18446744073709551615,
        "ratio": 0.25,
        "flags": [true, false],
        "nested": {}
      }
      """
    let document = try PropertyListReader.read(Data(text.utf8), file: "a.json")
    let root = document.root
    #expect(document.format == .json)
    #expect(root["name"]?.stringValue == "Folio é😀")
    #expect(root["name"]?.location == SourceLocation(file: "a.json", line: 2, column: 11))
    #expect(
      root.entry(forKey: "count")?.keyLocation == SourceLocation(file: "a.json", line: 3, column: 3)
    )
    #expect(root["count"]?.content == .integer(-3))
    #expect(root["big"]?.content == .unsignedInteger(.max))
    #expect(root["ratio"]?.content == .real(0.25))
    #expect(root["flags"]?.arrayValue?.map(\.boolValue) == [true, false])
    #expect(root["nested"]?.dictionaryEntries?.isEmpty == true)
  }

  @Test func nullIsRefused() throws {
    let error = #expect(throws: PropertyListError.self) {
      try PropertyListReader.read(Data("[1,\n null]".utf8), file: "a.json")
    }
    #expect(error?.code == .unrepresentable)
    #expect(error?.location == SourceLocation(file: "a.json", line: 2, column: 2))
  }

  @Test func malformedJSONNamesThePosition() throws {
    let error = #expect(throws: PropertyListError.self) {
      try PropertyListReader.read(Data("{\"a\": 1,\n \"b\" 2}".utf8), file: "a.json")
    }
    #expect(error?.code == .malformedJSON)
    #expect(error?.message == "malformed JSON: expected ':' after the key 'b'")
    #expect(error?.location == SourceLocation(file: "a.json", line: 2, column: 6))
  }

  @Test func duplicateKeyIsAWarning() throws {
    let document = try PropertyListReader.read(Data("{\"a\": 1, \"a\": 2}".utf8), file: "a.json")
    #expect(document.root["a"]?.content == .integer(2))
    #expect(document.diagnostics.map(\.code) == [Diagnostic.duplicateKeyCode])
  }

  @Test func trailingGarbageIsRefused() throws {
    let error = #expect(throws: PropertyListError.self) {
      try PropertyListReader.read(Data("[1] x".utf8), file: "a.json")
    }
    #expect(error?.code == .malformedJSON)
    #expect(error?.location?.column == 5)
  }
}
