import Foundation
import PropertyLists
import Testing

/// Issue 30 item 3 at the library: the value limit in every text format, the duplicate-key
/// warning cap, and the output limit of a conversion whose references expand.
@Suite struct PropertyListLimitsTests {
  static let documents: [(format: String, text: String)] = [
    (
      "xml",
      "<plist><array>" + String(repeating: "<integer>1</integer>", count: 50) + "</array></plist>"
    ),
    ("json", "[" + Array(repeating: "1", count: 50).joined(separator: ",") + "]"),
    ("openstep", "(" + Array(repeating: "a", count: 50).joined(separator: ",") + ")"),
  ]

  @Test(arguments: documents.map(\.format))
  func valuesPastTheLimitAreRefusedInEveryTextFormat(_ format: String) throws {
    let text = try #require(Self.documents.first { $0.format == format }?.text)
    var options = PropertyListReadOptions()
    options.maximumValueCount = 50
    let error = #expect(throws: PropertyListError.self) {
      try PropertyListReader.read(Data(text.utf8), file: "f", options: options)
    }
    #expect(error?.code == .tooManyValues)
    #expect(error?.message.contains("more than 50 values") == true)
    options.maximumValueCount = 51
    let document = try PropertyListReader.read(Data(text.utf8), file: "f", options: options)
    #expect(document.root.arrayValue?.count == 50)
  }

  @Test func duplicateKeyWarningsStopAtOneHundredAndThenCount() throws {
    let text = "{" + Array(repeating: "\"k\":1", count: 250).joined(separator: ",") + "}"
    let document = try PropertyListReader.read(Data(text.utf8), file: "f")
    let warnings = document.diagnostics.filter { $0.code == Diagnostic.duplicateKeyCode }
    #expect(warnings.count == 101)
    #expect(warnings.last?.message.contains("149 more repeated keys") == true)
  }

  @Test(arguments: [PropertyListFormat.xml, .json, .binary])
  func sharedValuesThatExpandPastTheOutputLimitAreRefusedBeforeWriting(
    _ format: PropertyListFormat
  ) throws {
    let big = PropertyListValue(.string(String(repeating: "x", count: 1 << 16)))
    let root = PropertyListValue(.array(Array(repeating: big, count: 64)))
    let error = #expect(throws: PropertyListError.self) {
      try PropertyListWriter.data(for: root, format: format, maximumOutputSize: 1 << 20)
    }
    #expect(error?.code == .outputTooLarge)
    let written = try PropertyListWriter.data(
      for: root, format: format, maximumOutputSize: 8 << 20)
    #expect(written.count > (format == .binary ? 1 << 16 : 4 << 20))
  }
}
