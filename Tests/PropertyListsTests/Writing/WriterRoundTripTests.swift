import FolioTestSupport
import Foundation
import PropertyLists
import Testing

@Suite struct WriterRoundTripTests {
  /// The real corpus, each file written as an exporter writes it: a repeated key once, with the
  /// value Foundation reads (four files repeat a key).
  static let corpus = BinaryCorpusTests.corpus

  @Test(arguments: corpus)
  func binaryOutputReadsBackIdenticallyInFoundationAndFolio(_ url: URL) throws {
    let original = try PropertyListReader.read(contentsOf: url).rootWithUniqueKeys
    let binary = try PropertyListWriter.data(for: original, format: .binary)
    #expect(binary.starts(with: Data("bplist00".utf8)))
    #expect(try foundationPlainValue(binary) == PlainValue(original))
    let again = try PropertyListReader.read(binary, file: "out.bplist")
    #expect(again.root == original)
    #expect(again.format == .binary)
  }

  @Test(arguments: corpus)
  func xmlBinaryXMLRoundTripPreservesEveryValue(_ url: URL) throws {
    let original = try PropertyListReader.read(contentsOf: url).rootWithUniqueKeys
    let xml = try PropertyListWriter.data(for: original, format: .xml)
    #expect(try foundationPlainValue(xml) == PlainValue(original))
    let binary = try PropertyListWriter.data(for: original, format: .binary)
    let back = try PropertyListReader.read(binary, file: "b").root
    let xmlAgain = try PropertyListWriter.data(for: back, format: .xml)
    #expect(xmlAgain == xml)
    #expect(try PropertyListReader.read(xmlAgain, file: "x").root == original)
  }

  @Test func plutilAcceptsAndConvertsOurBinaryAndXML() async throws {
    try await withTemporaryDirectory("plutil") { directory in
      for url in Self.corpus {
        let original = try PropertyListReader.read(contentsOf: url).rootWithUniqueKeys
        for format in [PropertyListFormat.binary, .xml] {
          let file = directory.appendingPathComponent("ours.\(format.rawValue)")
          try PropertyListWriter.write(original, to: file, format: format, replacePolicy: .replace)
          let lint = try runProcess(plutilPath, ["-lint", file.path])
          #expect(lint.status == 0, "\(url.lastPathComponent) \(format): \(lint.outputText)")
          #expect(lint.outputText.hasSuffix(": OK\n"))
          // plutil converts our bytes to XML; Folio reads that back to the same values.
          let converted = try runProcess(plutilPath, ["-convert", "xml1", "-o", "-", file.path])
          #expect(converted.status == 0)
          let reread = try PropertyListReader.read(converted.standardOutput, file: "plutil-out")
          #expect(PlainValue(reread.root) == PlainValue(original), "\(url.lastPathComponent)")
        }
      }
    }
  }

  @Test func plutilBinaryIsReadByFolio() async throws {
    try await withTemporaryDirectory("plutil") { directory in
      for url in Self.corpus.prefix(8) {
        let output = directory.appendingPathComponent("theirs.bplist")
        let result = try runProcess(
          plutilPath, ["-convert", "binary1", "-o", output.path, url.path])
        #expect(result.status == 0)
        let theirs = try PropertyListReader.read(contentsOf: output).root
        let ours = try PropertyListReader.read(contentsOf: url).rootWithUniqueKeys
        #expect(PlainValue(theirs) == PlainValue(ours))
      }
    }
  }

  @Test func everyScalarKindAndWidthSurvivesBinary() throws {
    var items: [PropertyListValue] = []
    for number: Int64 in [
      0, 1, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296, .max, -1, .min,
    ] {
      items.append(PropertyListValue(.integer(number)))
    }
    items.append(PropertyListValue(.unsignedInteger(.max)))
    items.append(PropertyListValue(.unsignedInteger(UInt64(Int64.max) + 1)))
    for real in [0.0, -0.0, 0.1, 1e300, -2.5, .infinity, -.infinity] {
      items.append(PropertyListValue(.real(real)))
    }
    items.append(PropertyListValue(.date(Date(timeIntervalSince1970: 0))))
    items.append(PropertyListValue(.date(Date(timeIntervalSinceReferenceDate: -1e9))))
    items.append(PropertyListValue(.data(Data())))
    items.append(PropertyListValue(.data(Data((0..<300).map { UInt8($0 & 0xFF) }))))
    items.append(PropertyListValue(.string("")))
    items.append(PropertyListValue(.string(String(repeating: "x", count: 70_000))))
    items.append(PropertyListValue(.string("naïve 日本 😀")))
    items.append(PropertyListValue(.string("e\u{301}")))
    items.append(PropertyListValue(.string("\u{E9}")))
    items.append(PropertyListValue(.boolean(true)))
    items.append(PropertyListValue(.boolean(false)))
    // Enough distinct objects that references need two bytes.
    for index in 0..<300 { items.append(PropertyListValue(.string("s\(index)"))) }
    let root = PropertyListValue(
      .dictionary([
        .init(key: "items", value: PropertyListValue(.array(items))),
        .init(key: "empty", value: PropertyListValue(.dictionary([]))),
      ]))
    let binary = try PropertyListWriter.data(for: root, format: .binary)
    let back = try PropertyListReader.read(binary, file: "b").root
    #expect(back == root)
    #expect(try foundationPlainValue(binary) == PlainValue(root))
    // Canonically equal but differently encoded strings stay distinct.
    let strings = back["items"]?.arrayValue?.compactMap(\.stringValue) ?? []
    #expect(strings.contains { Array($0.utf8) == [0x65, 0xCC, 0x81] })
    #expect(strings.contains { Array($0.utf8) == [0xC3, 0xA9] })
    let xml = try PropertyListWriter.data(for: root, format: .xml)
    #expect(try PropertyListReader.read(xml, file: "x").root == root)
  }

  @Test func xmlLayoutIsApples() throws {
    let root = PropertyListValue(
      .dictionary([
        .init(key: "b", value: PropertyListValue(.string("x < y & z > \"q\"\r"))),
        .init(
          key: "a",
          value: PropertyListValue(
            .array([
              PropertyListValue(.integer(1)), PropertyListValue(.real(3)),
              PropertyListValue(.real(0.5)),
              PropertyListValue(.boolean(true)), PropertyListValue(.array([])),
              PropertyListValue(.dictionary([])), PropertyListValue(.string("")),
              PropertyListValue(.date(Date(timeIntervalSince1970: 1_704_164_645))),
              PropertyListValue(.data(Data((0..<80).map { UInt8($0) }))),
            ]))),
      ]))
    let text = String(decoding: try PropertyListWriter.data(for: root, format: .xml), as: UTF8.self)
    #expect(
      text == """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>b</key>
        \t<string>x &lt; y &amp; z &gt; "q"&#13;</string>
        \t<key>a</key>
        \t<array>
        \t\t<integer>1</integer>
        \t\t<real>3</real>
        \t\t<real>0.5</real>
        \t\t<true/>
        \t\t<array/>
        \t\t<dict/>
        \t\t<string></string>
        \t\t<date>2024-01-02T03:04:05Z</date>
        \t\t<data>
        \t\tAAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKiss
        \t\tLS4vMDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk8=
        \t\t</data>
        \t</array>
        </dict>
        </plist>

        """)
    #expect(try PropertyListReader.read(Data(text.utf8), file: "x").root == root)
  }

  @Test func xmlRefusesControlCharacters() throws {
    let value = PropertyListValue(.string("bell\u{7}"))
    let error = #expect(throws: PropertyListError.self) {
      try PropertyListWriter.data(for: value, format: .xml)
    }
    #expect(error?.code == .unrepresentable)
    #expect(
      try PropertyListReader.read(PropertyListWriter.data(for: value, format: .binary), file: "b")
        .root == value)
  }

  @Test func xmlRefusesDatesBeyondItsYearsAndKeepsWholeSeconds() throws {
    for seconds in [1.8e190, -1e16, Double.nan] {
      let error = #expect(throws: PropertyListError.self) {
        try PropertyListWriter.data(
          for: PropertyListValue(.date(Date(timeIntervalSinceReferenceDate: seconds))),
          format: .xml)
      }
      #expect(error?.code == .unrepresentable)
    }
    let fractional = PropertyListValue(.date(Date(timeIntervalSince1970: 1_000_000_000.75)))
    let xml = try PropertyListWriter.data(for: fractional, format: .xml)
    #expect(String(decoding: xml, as: UTF8.self).contains("<date>2001-09-09T01:46:40Z</date>"))
    let far = PropertyListValue(.date(Date(timeIntervalSince1970: -62_135_596_800 - 86_400)))
    let farXML = try PropertyListWriter.data(for: far, format: .xml)
    #expect(String(decoding: farXML, as: UTF8.self).contains("<date>0000-12-31T00:00:00Z</date>"))
    #expect(try PropertyListReader.read(farXML, file: "x").root == far)
  }

  @Test func jsonMatchesPlutilsCompactForm() async throws {
    try await withTemporaryDirectory("json") { directory in
      let text = """
        <plist version="1.0"><dict><key>z</key><string>a/b "q" \\ é 😀\t</string>\
        <key>a</key><array><integer>1</integer><real>2.5</real><real>3</real><true/><array/>\
        <dict/><string></string><integer>-5</integer><integer>18446744073709551615</integer>\
        <real>1e-7</real><dict><key>k</key><false/></dict></array></dict></plist>
        """
      let file = directory.appendingPathComponent("j.plist")
      try Data(text.utf8).write(to: file)
      let root = try PropertyListReader.read(contentsOf: file).root
      let ours = String(
        decoding: try PropertyListWriter.data(for: root, format: .json), as: UTF8.self)
      #expect(
        ours
          == #"{"z":"a\/b \"q\" \\ é 😀\t","a":[1,2.5,3,true,[],{},"",-5,18446744073709551615,1e-07,{"k":false}]}"#
      )
      let theirs = try runProcess(plutilPath, ["-convert", "json", "-o", "-", file.path])
      #expect(theirs.status == 0)
      let ourValue = try JSONSerialization.jsonObject(with: Data(ours.utf8))
      let theirValue = try JSONSerialization.jsonObject(with: theirs.standardOutput)
      #expect(PlainValue(foundation: ourValue) == PlainValue(foundation: theirValue))
      #expect(try PropertyListReader.read(Data(ours.utf8), file: "j").format == .json)
    }
  }

  @Test func jsonRefusesWhatPlutilRefuses() throws {
    for value in [
      PropertyListValue(.array([PropertyListValue(.date(Date()))])),
      PropertyListValue(.array([PropertyListValue(.data(Data([1])))])),
      PropertyListValue(.array([PropertyListValue(.real(.nan))])),
      PropertyListValue(.string("top-level scalar")),
    ] {
      let error = #expect(throws: PropertyListError.self) {
        try PropertyListWriter.data(for: value, format: .json)
      }
      #expect(error?.code == .unrepresentable)
    }
  }

  @Test func atomicWriteReplacesTheFileAndLeavesNoTemporaries() async throws {
    try await withTemporaryDirectory("atomic") { directory in
      let file = directory.appendingPathComponent("out.plist")
      try Data("old".utf8).write(to: file)
      try PropertyListWriter.write(
        PropertyListValue(.string("new")), to: file, format: .xml, replacePolicy: .replace)
      #expect(try PropertyListReader.read(contentsOf: file).root.stringValue == "new")
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.plist"])
      let missing = directory.appendingPathComponent("no/such/dir/out.plist")
      let error = #expect(throws: PropertyListError.self) {
        try PropertyListWriter.write(PropertyListValue(.string("x")), to: missing, format: .xml)
      }
      #expect(error?.code == .writeFailed)
    }
  }
}

/// The toolchain's `plutil` (beside `swift`), the oracle for binary and XML output.
let plutilPath: String = {
  if let path = ProcessInfo.processInfo.environment["PLUTIL"] { return path }
  for candidate in ["/opt/swift/usr/bin/plutil", "/usr/bin/plutil"]
  where FileManager.default.isExecutableFile(atPath: candidate) {
    return candidate
  }
  return "plutil"
}()
