import Foundation
import PropertyLists
import Testing

@Suite struct PropertyListFuzzRegressionTests {
  static let fixtures: [URL] = {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/Fuzz")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0 != "README.md" }.sorted().map { folder.appendingPathComponent($0) }
  }()

  /// The fuzz harness's invariants: reading never traps, and what any writer accepts reads back
  /// to an equal value (JSON may turn integral reals into integers, so it only has to read back).
  static func checkInvariants(_ data: Data) throws {
    let options = PropertyListReadOptions(maximumInputSize: 1 << 20, maximumDepth: 64)
    guard let document = try? PropertyListReader.read(data, file: "fuzz", options: options) else {
      return
    }
    for format in PropertyListFormat.allCases {
      guard let written = try? PropertyListWriter.data(for: document.root, format: format) else {
        continue
      }
      let reread = try PropertyListReader.read(written, file: "rewritten")
      let expected = format == .xml ? wholeSecondDates(document.root) : document.root
      if format != .json { #expect(reread.root == expected, "\(format)") }
    }
  }

  /// The value as XML can carry it: dates to the whole second (the format has no fractions).
  static func wholeSecondDates(_ value: PropertyListValue) -> PropertyListValue {
    switch value.content {
    case .date(let date):
      return PropertyListValue(
        .date(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))))
    case .array(let items): return PropertyListValue(.array(items.map(wholeSecondDates)))
    case .dictionary(let entries):
      return PropertyListValue(
        .dictionary(entries.map { .init(key: $0.key, value: wholeSecondDates($0.value)) }))
    default: return value
    }
  }

  @Test(arguments: fixtures)
  func keptFuzzInputStaysFixed(_ url: URL) throws {
    let data = try Data(contentsOf: url)
    try Self.checkInvariants(data)
    if let selector = data.first {
      try Self.checkInvariants(Data("bplist00".utf8) + data.dropFirst())
      if selector % 3 == 1 {
        try Self.checkInvariants(Data("<plist>".utf8) + data.dropFirst() + Data("</plist>".utf8))
      }
    }
  }

  @Test func writersRoundTripStringsXMLCannotCarryOrThatNeedEscaping() throws {
    for text in ["a\r\nb", "]]>", "\u{FFFE}", "tab\there", "😀", "&#13;"] {
      try Self.checkInvariants(
        try PropertyListWriter.data(
          for: PropertyListValue(.array([PropertyListValue(.string(text))])), format: .binary))
    }
  }
}
