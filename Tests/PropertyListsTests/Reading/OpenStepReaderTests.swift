import FolioTestSupport
import Foundation
import PropertyLists
import Testing

@Suite struct OpenStepReaderTests {
  static func read(_ text: String, file: String = "old.plist") throws -> PropertyListDocument {
    try PropertyListReader.read(Data(text.utf8), file: file)
  }

  /// What plutil makes of the text, through its XML output read back by Folio's XML reader.
  static func plutilValue(_ text: String, in folder: URL) throws -> PlainValue? {
    let input = folder.appendingPathComponent("in.plist")
    try Data(text.utf8).write(to: input)
    let converted = try runProcess(plutilPath, ["-convert", "xml1", "-o", "-", input.path])
    guard converted.status == 0 else { return nil }
    return PlainValue(try PropertyListReader.read(converted.standardOutput, file: "plutil").root)
  }

  @Test func readsEveryKindOfValueWithPositions() throws {
    let text = """
      // A comment, then the root.
      {
        name = "Kod";   /* an inline comment */
        version = 0.0.4;
        list = ( "x86_64", i386, );
        blob = <0fbd 7777
                1e>;
        nested = { inner = value; };
      }
      """
    let document = try Self.read(text)
    #expect(document.format == .openStep)
    #expect(document.diagnostics.isEmpty)
    let root = document.root
    #expect(root.location?.line == 2 && root.location?.column == 1)
    #expect(root["name"]?.stringValue == "Kod")
    #expect(root["name"]?.location?.line == 3 && root["name"]?.location?.column == 10)
    #expect(root.entry(forKey: "version")?.keyLocation?.column == 3)
    #expect(root["version"]?.stringValue == "0.0.4")
    #expect(root["list"]?.arrayValue?.map(\.stringValue) == ["x86_64", "i386"])
    #expect(root["list"]?.arrayValue?[1].location?.column == 22)
    if case .data(let bytes) = root["blob"]?.content {
      #expect(bytes == Data([0x0F, 0xBD, 0x77, 0x77, 0x1E]))
    } else {
      Issue.record("blob is not data")
    }
    #expect(root["nested"]?["inner"]?.stringValue == "value")
    #expect(root["nested"]?["inner"]?.location?.line == 8)
  }

  @Test func quotedStringsTakeFoundationsEscapes() throws {
    let document = try Self.read(
      #"{ a = "tab\tnl\nq\"bs\\\101\U00e9\UD83D\UDE00"; b = 'single "quoted"'; c = "\251"; }"#)
    #expect(document.root["a"]?.stringValue == "tab\tnl\nq\"bs\\Aé😀")
    #expect(document.root["b"]?.stringValue == "single \"quoted\"")
    // Octal escapes above 127 are NeXTSTEP characters: \251 is a right single quotation mark.
    #expect(document.root["c"]?.stringValue == "\u{2019}")
  }

  @Test func stringsFileFormWithAndWithoutValues() throws {
    let document = try Self.read(
      """
      /* Localizable.strings */
      "greeting" = "Hello";
      farewell = "Goodbye";
      "shortcut";
      """, file: "Localizable.strings")
    #expect(document.format == .openStep)
    #expect(document.root["greeting"]?.stringValue == "Hello")
    #expect(document.root["farewell"]?.stringValue == "Goodbye")
    #expect(document.root["shortcut"]?.stringValue == "shortcut")
    #expect(document.root.entry(forKey: "farewell")?.keyLocation?.line == 3)
  }

  @Test func aLoneStringAndAnEmptyTextOfComments() throws {
    #expect(try Self.read("just-a-string").root.stringValue == "just-a-string")
    #expect(try Self.read("// nothing but a comment\n").root.dictionaryEntries?.isEmpty == true)
  }

  @Test func repeatedKeysAreWarnedAndTheLastValueIsWhatFoundationReads() throws {
    let document = try Self.read("{ a = 1; b = 2;\n a = 3; }")
    #expect(document.diagnostics.map(\.code) == [Diagnostic.duplicateKeyCode])
    #expect(document.diagnostics.first?.location?.line == 2)
    #expect(document.rootWithUniqueKeys["a"]?.stringValue == "3")
  }

  @Test(arguments: [
    ("{ a = b }", "missing ';' after the value of the key 'a'", 1, 9),
    ("{ a b; }", "expected '=' or ';' after the key 'a'", 1, 5),
    ("( a, b", "the text ends inside an array", 1, 7),
    ("( a b )", "expected ',' or ')' in the array", 1, 5),
    ("{ a = <0f1>; }", "odd number of hex digits", 1, 10),
    ("{ a = <0f\tbd>; }", "not a hex digit", 1, 10),
    ("{ a = \"never\n ends; }", "the string never ends", 1, 7),
    ("{ a = \"\\U\"; }", "\\U needs hex digits", 1, 8),
    ("{ a = b; } junk", "unexpected text after the property list", 1, 12),
    ("{ = b; }", "expected a key", 1, 3),
    ("{ a = \"\\UD800\"; }", "half of a surrogate pair", 1, 14),
  ])
  func malformedInputIsRefusedAtItsPlace(
    _ text: String, _ message: String, _ line: Int, _ column: Int
  ) {
    let error = #expect(throws: PropertyListError.self) { try Self.read(text) }
    #expect(error?.code == .malformedOpenStep, "\(text)")
    #expect(error?.message.contains(message) == true, "\(error?.message ?? "") for \(text)")
    #expect(error?.location?.line == line && error?.location?.column == column, "\(text)")
  }

  @Test func deepNestingStopsAtTheDepthLimitWithoutExhaustingTheStack() {
    for opener in ["(", "{ a = "] {
      let text = String(repeating: opener, count: 200_000)
      let error = #expect(throws: PropertyListError.self) {
        try PropertyListReader.read(
          Data(text.utf8), file: "deep", options: .init(maximumDepth: 128))
      }
      #expect(error?.code == .tooDeep)
    }
  }

  @Test func writersRefuseOpenStepAndConvertDoesNotOfferIt() throws {
    #expect(!PropertyListFormat.writable.contains(.openStep))
    let error = #expect(throws: PropertyListError.self) {
      try PropertyListWriter.data(for: PropertyListValue(.string("x")), format: .openStep)
    }
    #expect(error?.code == .unsupportedFormat)
  }

  /// kod's Info.plist (in the real corpus) and hand-written documents in the shapes real
  /// projects use, each read as plutil reads it.
  @Test(.enabled(if: programExists(plutilPath)))
  func readsAsPlutilReadsRealisticInputs() async throws {
    var inputs = [
      try String(
        contentsOf: ProjectPaths.plistCorpus.appendingPathComponent(
          "rsms__kod__resources__Info.plist"),
        encoding: .utf8)
    ]
    inputs += [
      """
      {
          CFBundleDocumentTypes = (
              {
                  CFBundleTypeName = "Source";
                  CFBundleTypeRole = Editor;
                  LSItemContentTypes = ( "public.c-source", "public.objective-c-source" );
                  CFBundleTypeExtensions = (c, m, h);
              }
          );
          UTExportedTypeDeclarations = ({
              UTTypeIdentifier = "com.example.kod-session";
              UTTypeConformsTo = (public.data);
              UTTypeTagSpecification = { "public.filename-extension" = (kodsession); };
          });
          NSHumanReadableCopyright = "\\U00a9 2010 Someone\\nAll rights reserved.";
          Quoted = 'It\\'s "fine"';
          Octal = "\\101\\251";
          Data = <cafe babe 00 ff>;
          Empty = {};
          EmptyArray = ();
      }
      """,
      "/* InfoPlist.strings */\nCFBundleName = \"Kod\";\n\"NSHumanReadableCopyright\" = \"\\U00a9 me\";\nshortcut;\n",
      "( one, \"two\", <00>, { k = v; }, (), )",
      "{ a = 1; a = 2; b = \"x\\ty\"; }",
      "// only comments\n/* and more */\n",
    ]
    try await withTemporaryDirectory("openstep") { folder in
      for text in inputs {
        let theirs = try #require(try Self.plutilValue(text, in: folder), "plutil refused \(text)")
        let ours = try Self.read(text)
        #expect(PlainValue(ours.rootWithUniqueKeys) == theirs, "\(text)")
      }
    }
  }

  /// Generated documents (seeded, so every run reads the same ones), each read as Foundation
  /// reads it in this process.
  @Test func readsAsFoundationReadsGeneratedDocuments() throws {
    var generator = SeededGenerator(seed: 0x0F01_10)
    for round in 0..<300 {
      // A top-level `<` reads as XML, so the root is a container.
      let text = "(" + Self.document(depth: 1, using: &generator) + ")"
      let ours = try Self.read(text, file: "generated-\(round)")
      let object = try PropertyListSerialization.propertyList(
        from: Data(text.utf8), options: [], format: nil)
      #expect(PlainValue(ours.rootWithUniqueKeys) == PlainValue(foundation: object), "\(text)")
    }
  }

  static func document(depth: Int, using generator: inout SeededGenerator) -> String {
    let choice =
      depth > 3
      ? Int.random(in: 0..<3, using: &generator) : Int.random(in: 0..<5, using: &generator)
    let space = [" ", "\n", "\t", " /* c */ ", "\n// c\n"].randomElement(using: &generator)!
    switch choice {
    case 0:
      let words = ["a", "b.c", "x_y", "$v", "path/to:it", "-1", "0.5"]
      return words.randomElement(using: &generator)!
    case 1:
      let pieces = [
        "plain", "\\n", "\\t", "\\\"", "\\\\", "\\101", "\\U00e9", "é", "😀", " ", "\\251", "'",
      ]
      let count = Int.random(in: 0..<5, using: &generator)
      return "\"" + (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
        + "\""
    case 2:
      let count = Int.random(in: 0..<4, using: &generator)
      return "<"
        + (0..<count).map { _ in String(format: "%02x", Int.random(in: 0..<256, using: &generator))
        }
        .joined(separator: [" ", "", "\n"].randomElement(using: &generator)!) + ">"
    case 3:
      let count = Int.random(in: 0..<4, using: &generator)
      let items = (0..<count).map { _ in document(depth: depth + 1, using: &generator) }
      return "(" + space + items.joined(separator: "," + space)
        + (Bool.random(using: &generator) && count > 0 ? "," : "") + ")"
    default:
      let count = Int.random(in: 0..<4, using: &generator)
      let entries = (0..<count).map { index in
        "k\(index)" + space + "=" + space + document(depth: depth + 1, using: &generator) + ";"
      }
      return "{" + space + entries.joined(separator: space) + space + "}"
    }
  }
}

/// A small deterministic generator (SplitMix64), so generated inputs are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
