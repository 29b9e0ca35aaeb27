import FolioSystem
import Foundation
import PropertyLists
import Testing

/// Wraps plist body lines in Apple's header; the body starts on line 4.
private func plist(_ body: String) -> Data {
  Data(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    \(body)
    </plist>
    """.utf8)
}

private func readError(_ data: Data, file: String = "Info.plist") -> PropertyListError? {
  #expect(throws: PropertyListError.self) { try PropertyListReader.read(data, file: file) }
}

@Suite struct XMLReaderTests {
  // MARK: Values and positions

  @Test func readsEveryKindWithLineAndColumn() throws {
    let data = plist(
      """
      <dict>
      \t<key>name</key>
      \t<string>Folio &amp; co &#x263A; &lt;x&gt;</string>
      \t<key>count</key>
      \t<integer>-42</integer>
      \t<key>big</key>
      \t<integer>18446744073709551615</integer>
      \t<key>small</key>
      \t<integer>-9223372036854775808</integer>
      \t<key>hex</key>
      \t<integer>0x1F</integer>
      \t<key>ratio</key>
      \t<real>2.5e3</real>
      \t<key>on</key>
      \t<true/>
      \t<key>off</key>
      \t<false></false>
      \t<key>when</key>
      \t<date>2024-02-29T12:34:56Z</date>
      \t<key>blob</key>
      \t<data>
      \tAAEC
      \t/w==
      \t</data>
      \t<key>empty</key>
      \t<string/>
      \t<key>list</key>
      \t<array><string>a</string><!-- note --><string><![CDATA[<b>]]></string></array>
      </dict>
      """)
    let document = try PropertyListReader.read(data, file: "Info.plist")
    let root = document.root
    #expect(document.format == .xml)
    #expect(document.diagnostics.isEmpty)
    #expect(root.location == SourceLocation(file: "Info.plist", line: 4, column: 1))
    #expect(root["name"]?.stringValue == "Folio & co ☺ <x>")
    #expect(root["name"]?.location == SourceLocation(file: "Info.plist", line: 6, column: 2))
    #expect(
      root.entry(forKey: "name")?.keyLocation
        == SourceLocation(file: "Info.plist", line: 5, column: 2))
    #expect(root["count"]?.content == .integer(-42))
    #expect(root["big"]?.content == .unsignedInteger(.max))
    #expect(root["small"]?.content == .integer(.min))
    #expect(root["hex"]?.content == .integer(31))
    #expect(root["ratio"]?.content == .real(2500))
    #expect(root["on"]?.boolValue == true)
    #expect(root["off"]?.boolValue == false)
    #expect(root["when"]?.content == .date(Date(timeIntervalSince1970: 1_709_210_096)))
    #expect(root["blob"]?.content == .data(Data([0, 1, 2, 0xFF])))
    #expect(root["empty"]?.stringValue == "")
    let list = try #require(root["list"]?.arrayValue)
    #expect(list.map(\.stringValue) == ["a", "<b>"])
    #expect(list[1].location == SourceLocation(file: "Info.plist", line: 31, column: 40))
    #expect(root.dictionaryEntries?.map(\.key).first == "name")
  }

  @Test func columnsCountCharactersNotBytes() throws {
    let data = plist("<dict><key>é</key><string>ü</string></dict>")
    let root = try PropertyListReader.read(data, file: "x").root
    // <dict>=1..6, <key>=7, é, </key>, then <string> at column 7+5+1+6 = 19.
    #expect(root["é"]?.location?.column == 19)
  }

  @Test func realsAcceptNanAndInfinityAsAppleDoes() throws {
    let data = plist(
      "<array><real>nan</real><real>-inf</real><real>+infinity</real><real>1.5</real><real>7</real></array>"
    )
    let items = try #require(try PropertyListReader.read(data, file: "x").root.arrayValue)
    guard case .real(let nan) = items[0].content else { Issue.record("not a real"); return }
    #expect(nan.isNaN)
    #expect(items[1].content == .real(-.infinity))
    #expect(items[2].content == .real(.infinity))
    #expect(items[3].content == .real(1.5))
    #expect(items[4].content == .real(7))
  }

  @Test func readsAValueWithoutThePlistWrapper() throws {
    let document = try PropertyListReader.read(Data("<string>bare</string>".utf8), file: "x")
    #expect(document.root.stringValue == "bare")
  }

  @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian])
  func readsUTF16WithByteOrderMark(_ encoding: String.Encoding) throws {
    let text = """
      <?xml version="1.0" encoding="UTF-16"?>
      <plist version="1.0">
      <dict><key>naïve</key><string>日本</string></dict>
      </plist>
      """
    var data = Data(encoding == .utf16LittleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF])
    data.append(try #require(text.data(using: encoding)))
    let root = try PropertyListReader.read(data, file: "x").root
    #expect(root["naïve"]?.stringValue == "日本")
    #expect(root["naïve"]?.location == SourceLocation(file: "x", line: 3, column: 23))
  }

  @Test func readsUTF8WithByteOrderMark() throws {
    var data = Data([0xEF, 0xBB, 0xBF])
    data.append(plist("<string>ok</string>"))
    #expect(try PropertyListReader.read(data, file: "x").root.stringValue == "ok")
  }

  @Test func readsLatin1WhenTheDeclarationSaysSo() throws {
    var data = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>".utf8)
    data.append(0xE9)
    data.append(Data("</string></plist>".utf8))
    #expect(try PropertyListReader.read(data, file: "x").root.stringValue == "é")
  }

  @Test func duplicateKeyIsAWarningAndTheLastValueWins() throws {
    let data = plist(
      """
      <dict>
        <key>A</key><string>1</string>
        <key>A</key><string>2</string>
      </dict>
      """)
    let document = try PropertyListReader.read(data, file: "Info.plist")
    #expect(document.root["A"]?.stringValue == "2")
    #expect(document.root.dictionaryEntries?.count == 2)
    let warning = try #require(document.diagnostics.first)
    #expect(warning.severity == .warning)
    #expect(warning.code == Diagnostic.duplicateKeyCode)
    #expect(warning.location == SourceLocation(file: "Info.plist", line: 6, column: 3))
    #expect(
      warning.message == "key 'A' repeats in this <dict> (first at line 5); the last value wins")
  }

  @Test func duplicateKeysAreReportedInDocumentOrder() throws {
    let data = plist(
      """
      <dict>
        <key>A</key><dict><key>x</key><true/><key>x</key><true/></dict>
        <key>A</key><string>2</string>
      </dict>
      """)
    let document = try PropertyListReader.read(data, file: "Info.plist")
    #expect(document.diagnostics.map(\.location?.line) == [5, 6])
    #expect(document.diagnostics.map(\.location?.column) == [40, 3])
  }

  @Test func largeDictionariesFindDuplicatesToo() throws {
    var body = "<dict>"
    for index in 0..<100 { body += "<key>k\(index)</key><integer>\(index)</integer>" }
    body += "<key>k7</key><true/></dict>"
    let document = try PropertyListReader.read(plist(body), file: "x")
    #expect(document.diagnostics.count == 1)
    #expect(document.diagnostics.first?.message.hasPrefix("key 'k7' repeats") == true)
    #expect(document.root["k7"]?.boolValue == true)
  }

  @Test func nonexistentDateRollsOverWithAWarning() throws {
    let document = try PropertyListReader.read(
      plist("<date>2023-02-29T24:00:00Z</date>"), file: "x")
    #expect(document.root.content == .date(Date(timeIntervalSince1970: 1_677_715_200)))
    #expect(document.diagnostics.map(\.code) == [Diagnostic.nonexistentDateCode])
    #expect(
      document.diagnostics.first?.message
        == "<date> '2023-02-29T24:00:00Z' does not exist; it is read as 2023-03-02T00:00:00Z, as Apple reads it"
    )
  }

  @Test func spacesAroundNumbersAndDatesAreRefusedAsApplesReaderDoes() throws {
    #expect(readError(plist("<integer> 42 </integer>"))?.code == .invalidInteger)
    #expect(readError(plist("<real> 1.5</real>"))?.code == .invalidReal)
    #expect(readError(plist("<date> 2024-01-01T00:00:00Z</date>"))?.code == .invalidDate)
    #expect(readError(plist("<true> </true>"))?.code == .unexpectedText)
  }

  @Test func commentInsideAValueIsRefused() throws {
    let error = try #require(readError(plist("<array>\n  <string>a<!-- c -->b</string></array>")))
    #expect(error.code == .misplacedMarkup)
    #expect(error.message == "<string> holds a comment; Apple's reader refuses one inside a value")
    #expect(error.location == SourceLocation(file: "Info.plist", line: 5, column: 3))
  }

  @Test func cdataOnlyInStringsAndKeys() throws {
    let error = try #require(readError(plist("<integer><![CDATA[1]]></integer>")))
    #expect(error.code == .misplacedMarkup)
    #expect(error.location == SourceLocation(file: "Info.plist", line: 4, column: 1))
    let key = try PropertyListReader.read(
      plist("<dict><key><![CDATA[a<b]]></key><true/></dict>"), file: "x")
    #expect(key.root["a<b"]?.boolValue == true)
  }

  @Test func keyOutsideADictIsAStringWithAWarning() throws {
    let document = try PropertyListReader.read(plist("<array><key>k</key></array>"), file: "x")
    #expect(document.root.arrayValue?.first?.stringValue == "k")
    #expect(document.diagnostics.map(\.code) == [Diagnostic.strayKeyCode])
    #expect(document.diagnostics.first?.location == SourceLocation(file: "x", line: 4, column: 8))
  }

  // MARK: One test per malformed class

  @Test func unclosedTag() throws {
    let error = try #require(readError(plist("<array>\n  <string>a</string>\n")))
    #expect(error.code == .malformedXML)
    #expect(error.message.hasPrefix("malformed XML: "))
    #expect(error.message.contains("array"))
    #expect(error.location?.line == 7)
  }

  @Test func mismatchedEndTag() throws {
    let error = try #require(readError(plist("<array>\n  <string>a</integer>\n</array>")))
    #expect(error.code == .malformedXML)
    #expect(error.message.contains("mismatch"))
    #expect(error.location?.line == 5)
  }

  @Test func keyWithoutValue() throws {
    let error = try #require(
      readError(plist("<dict>\n\t<key>UTTypeIdentifier</key>\n</dict>")))
    #expect(error.code == .missingValue)
    #expect(error.description == "Info.plist:5:2: <key> 'UTTypeIdentifier' has no value")
  }

  @Test func keyFollowedByKey() throws {
    let error = try #require(
      readError(plist("<dict>\n\t<key>A</key>\n\t<key>B</key><string/>\n</dict>")))
    #expect(error.code == .missingValue)
    #expect(error.message == "<key> 'A' has no value")
    #expect(error.location == SourceLocation(file: "Info.plist", line: 5, column: 2))
  }

  @Test func valueWithoutKey() throws {
    let error = try #require(readError(plist("<dict>\n  <string>x</string>\n</dict>")))
    #expect(error.code == .missingKey)
    #expect(error.message == "expected <key> in <dict>, found <string>")
    #expect(error.location == SourceLocation(file: "Info.plist", line: 5, column: 3))
  }

  @Test func unknownElement() throws {
    let error = try #require(readError(plist("<array>\n  <strin>x</strin>\n</array>")))
    #expect(error.code == .unknownElement)
    #expect(error.message.hasPrefix("unknown element <strin>"))
    #expect(error.location == SourceLocation(file: "Info.plist", line: 5, column: 3))
  }

  /// Issue 10's messages: an XInclude (or any namespaced) element is named as written.
  @Test func anXIncludeElementIsNamedAsWritten() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0" xmlns:xi="http://www.w3.org/2001/XInclude" xmlns:o="urn:other">
      <dict>
        <key>a</key>
        <xi:include href="/etc/passwd" parse="text"/>
      </dict>
      </plist>
      """
    let error = try #require(readError(Data(text.utf8)))
    #expect(error.code == .unknownElement)
    #expect(
      error.message.hasPrefix("an XInclude element <xi:include>, which Folio never follows"),
      "\(error.message)")
    #expect(error.location == SourceLocation(file: "Info.plist", line: 5, column: 3))
    let other = try #require(
      readError(Data(text.replacingOccurrences(of: "xi:include", with: "o:thing").utf8)))
    #expect(
      other.message.hasPrefix("unknown element <o:thing> (namespace urn:other)"), "\(other.message)"
    )
  }

  @Test func elementInsideAString() throws {
    let error = try #require(readError(plist("<string>a<true/></string>")))
    #expect(error.code == .unexpectedElement)
    #expect(error.message == "unexpected element <true> inside <string>")
    #expect(error.location == SourceLocation(file: "Info.plist", line: 4, column: 10))
  }

  @Test func badInteger() throws {
    let error = try #require(readError(plist("<array>\n    <integer>12x</integer></array>")))
    #expect(error.code == .invalidInteger)
    #expect(error.message == "<integer> '12x' is not a 64-bit integer")
    #expect(error.location == SourceLocation(file: "Info.plist", line: 5, column: 5))
  }

  @Test func integerOutOfRange() throws {
    let error = try #require(readError(plist("<integer>18446744073709551616</integer>")))
    #expect(error.code == .invalidInteger)
    #expect(error.location == SourceLocation(file: "Info.plist", line: 4, column: 1))
    let negative = try #require(readError(plist("<integer>-9223372036854775809</integer>")))
    #expect(negative.code == .invalidInteger)
  }

  @Test func emptyInteger() throws {
    let error = try #require(readError(plist("<integer/>")))
    #expect(error.code == .invalidInteger)
  }

  @Test func badReal() throws {
    let error = try #require(readError(plist("<array><real>1.2.3</real></array>")))
    #expect(error.code == .invalidReal)
    #expect(error.message == "<real> '1.2.3' is not a number")
    #expect(error.location == SourceLocation(file: "Info.plist", line: 4, column: 8))
  }

  @Test func badDate() throws {
    let error = try #require(readError(plist("<date>2023-13-01T00:00:00Z</date>")))
    #expect(error.code == .invalidDate)
    #expect(
      error.message
        == "<date> '2023-13-01T00:00:00Z' is not a date of the form YYYY-MM-DDTHH:MM:SSZ")
    #expect(error.location == SourceLocation(file: "Info.plist", line: 4, column: 1))
  }

  @Test func badBase64() throws {
    let error = try #require(readError(plist("<array>\n<data>AAE!</data></array>")))
    #expect(error.code == .invalidData)
    #expect(error.message == "<data> is not valid base64: unexpected character '!'")
    #expect(error.location == SourceLocation(file: "Info.plist", line: 5, column: 1))
  }

  @Test func truncatedBase64() throws {
    let error = try #require(readError(plist("<data>A</data>")))
    #expect(error.code == .invalidData)
    #expect(error.message == "<data> is not valid base64: it ends in the middle of a byte")
  }

  @Test func textInsideTrue() throws {
    let error = try #require(readError(plist("<true>yes</true>")))
    #expect(error.code == .unexpectedText)
    #expect(error.message == "<true> must be empty")
  }

  @Test func strayTextBetweenElements() throws {
    let error = try #require(
      readError(plist("<array>\n    @LOCALIZATIONS@\n    <string>en</string>\n</array>")))
    #expect(error.code == .unexpectedText)
    #expect(error.description == "Info.plist:5:5: unexpected text '@LOCALIZATIONS@' in <array>")
  }

  @Test func trailingGarbage() throws {
    var data = plist("<string>a</string>")
    data.append(Data("\n<string>b</string>\n".utf8))
    let error = try #require(readError(data))
    #expect(error.code == .malformedXML)
    #expect(error.message.contains("Extra content"))
    #expect(error.location?.line == 6)
  }

  @Test func trailingText() throws {
    var data = plist("<string>a</string>")
    data.append(Data("\ngarbage".utf8))
    let error = try #require(readError(data))
    #expect(error.code == .malformedXML)
    #expect(error.location?.line == 6)
  }

  @Test func twoValuesInPlist() throws {
    let error = try #require(readError(plist("<string>a</string>\n<string>b</string>")))
    #expect(error.code == .unexpectedElement)
    #expect(error.location == SourceLocation(file: "Info.plist", line: 5, column: 1))
  }

  @Test func emptyPlist() throws {
    let error = try #require(readError(plist("")))
    #expect(error.code == .missingRoot)
    #expect(error.location == SourceLocation(file: "Info.plist", line: 3, column: 1))
  }

  @Test func emptyFile() throws {
    let error = try #require(readError(Data()))
    #expect(error.code == .emptyInput)
  }

  @Test func invalidUTF8() throws {
    var data = Data("<plist><string>".utf8)
    data.append(contentsOf: [0xC3, 0x28])
    data.append(Data("</string></plist>".utf8))
    let error = try #require(readError(data))
    #expect(error.code == .malformedXML)
    #expect(error.location?.line == 1)
  }

  @Test func openStepIsReadNotMistakenForJSON() throws {
    let document = try PropertyListReader.read(
      Data("{\n  CFBundleName = Kod;\n}\n".utf8), file: "kod.plist")
    #expect(document.format == .openStep)
    #expect(document.root["CFBundleName"]?.stringValue == "Kod")
    #expect(
      document.root["CFBundleName"]?.location
        == SourceLocation(file: "kod.plist", line: 2, column: 18))
    let error = try #require(readError(Data("\u{1}binary?".utf8), file: "odd"))
    #expect(error.code == .unsupportedFormat)
    #expect(error.message == "not an XML, binary, JSON or OpenStep property list")
  }

  // MARK: Safety

  @Test func entityDeclarationIsRefusedNamingTheEntity() throws {
    let data = Data(
      """
      <?xml version="1.0"?>
      <!DOCTYPE plist [
        <!ENTITY lol "lol">
        <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
      ]>
      <plist><string>&lol2;</string></plist>
      """.utf8)
    let error = try #require(readError(data))
    #expect(error.code == .entityDeclaration)
    #expect(error.message.contains("'lol'"))
    #expect(error.location?.line == 3)
  }

  @Test func billionLaughsFailsAtTheFirstDeclaration() throws {
    var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol0 \"lol\">\n"
    for level in 1...40 {
      let previous = String(repeating: "&lol\(level - 1);", count: 10)
      text += "<!ENTITY lol\(level) \"\(previous)\">\n"
    }
    text += "]>\n<plist><string>&lol40;</string></plist>\n"
    let error = try #require(readError(Data(text.utf8)))
    #expect(error.code == .entityDeclaration)
    #expect(error.message.contains("'lol0'"))
  }

  @Test func parameterEntityIsRefused() throws {
    let data = Data(
      """
      <?xml version="1.0"?>
      <!DOCTYPE plist [ <!ENTITY % p "<!ENTITY x 'y'>"> %p; ]>
      <plist><string>&x;</string></plist>
      """.utf8)
    let error = try #require(readError(data))
    #expect(error.code == .entityDeclaration)
    #expect(error.message.contains("'p'"))
  }

  @Test func externalEntityIsNeverFetched() throws {
    let data = Data(
      """
      <?xml version="1.0"?>
      <!DOCTYPE plist [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
      <plist><string>&xxe;</string></plist>
      """.utf8)
    let error = try #require(readError(data))
    #expect(error.code == .entityDeclaration)
    #expect(error.message.contains("'xxe'"))
  }

  @Test func undefinedEntityIsRefused() throws {
    let error = try #require(readError(plist("<string>&nbsp;</string>")))
    #expect(error.message.contains("nbsp"))
    #expect(error.location?.line == 4)
  }

  @Test func nestingBeyondTheLimitIsRefused() throws {
    let body = String(repeating: "<array>", count: 20) + String(repeating: "</array>", count: 20)
    let error = #expect(throws: PropertyListError.self) {
      try PropertyListReader.read(
        plist(body), file: "deep.plist", options: PropertyListReadOptions(maximumDepth: 10))
    }
    #expect(error?.code == .tooDeep)
    #expect(error?.location == SourceLocation(file: "deep.plist", line: 4, column: 71))
    #expect(try PropertyListReader.read(plist(body), file: "x").root.arrayValue?.count == 1)
  }

  @Test func inputBeyondTheSizeLimitIsRefused() throws {
    let error = #expect(throws: PropertyListError.self) {
      try PropertyListReader.read(
        plist("<string>abc</string>"), file: "big.plist",
        options: PropertyListReadOptions(maximumInputSize: 64))
    }
    #expect(error?.code == .inputTooLarge)
    #expect(error?.message.contains("limit of 64 bytes") == true)
  }

  @Test func readsFromAFileWithItsDisplayName() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("folio-xml-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("Info.plist")
    try plist("<dict>\n<key>k</key>\n</dict>").write(to: url)
    let error = #expect(throws: PropertyListError.self) {
      try PropertyListReader.read(contentsOf: url, displayName: "App/Info.plist")
    }
    #expect(error?.description == "App/Info.plist:5:1: <key> 'k' has no value")
    let missing = #expect(throws: PropertyListError.self) {
      try PropertyListReader.read(contentsOf: directory.appendingPathComponent("none.plist"))
    }
    #expect(missing?.code == .readFailed)
  }
}
