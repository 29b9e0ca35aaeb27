import FolioCommands
import FolioSystem
import FolioTestSupport
import Foundation
import Testing

/// Every JSON output of the tool writes one string the same way: the characters that would
/// reach a terminal raw (controls, DEL) or end a line in JavaScript (U+2028, U+2029) are
/// escaped, whichever writer made the document.
@Suite struct JSONOutputEscapingTests {
  /// A name holding each character the outputs must escape, and one they must keep.
  static let hostile = "a\u{7F}b\u{2028}c\u{2029}d\u{01}e\u{1B}f\u{E9}g"

  private func run(_ arguments: [String], in directory: URL, input: Data = Data()) async
    -> (Int32, Data, String)
  {
    let context = CommandContext(
      standardOutput: .buffer(), standardError: .buffer(), readStandardInput: { input },
      currentDirectory: directory.path)
    let status = await FolioMain.run(arguments, context: context)
    return (status, context.standardOutput.data, context.standardError.text)
  }

  /// The bytes no JSON output may hold raw: C0 controls but the line break between records,
  /// DEL, and UTF-8 U+2028 / U+2029.
  private func rawHostileBytes(in output: Data) -> [String] {
    var found: [String] = []
    let bytes = [UInt8](output)
    for (index, byte) in bytes.enumerated() {
      if (byte < 0x20 && byte != 0x0A && byte != 0x20) || byte == 0x7F {
        found.append("0x\(String(byte, radix: 16)) at \(index)")
      }
      if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
        bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
      {
        found.append("U+202\(bytes[index + 2] == 0xA8 ? "8" : "9") at \(index)")
      }
    }
    return found
  }

  /// Every string value anywhere in a decoded JSON document.
  private func strings(in value: Any) -> [String] {
    switch value {
    case let text as String: [text]
    case let array as [Any]: array.flatMap(strings(in:))
    case let object as [String: Any]: object.keys.map { $0 } + object.values.flatMap(strings(in:))
    default: []
    }
  }

  /// Checks that `output` (one document, or one per line) escapes the hostile characters
  /// and that decoding it gives the hostile name back whole, in some string.
  private func expectEscaped(
    _ output: Data, lines: Bool = false, keepsName: Bool = true, _ what: String
  ) throws {
    #expect(rawHostileBytes(in: output).isEmpty, "\(what): \(rawHostileBytes(in: output))")
    let text = String(decoding: output, as: UTF8.self)
    if keepsName {
      #expect(text.contains(#"\u007f"#), "\(what) does not write DEL as \\u007f: \(text)")
      #expect(text.contains(#"\u2028"#), "\(what) does not write U+2028 as \\u2028: \(text)")
    }
    let documents = lines ? text.split(separator: "\n").map(String.init) : [text]
    var decoded: [String] = []
    for document in documents {
      let value = try JSONSerialization.jsonObject(
        with: Data(document.utf8), options: [.fragmentsAllowed])
      decoded += strings(in: value)
    }
    if keepsName {
      #expect(decoded.contains { $0.contains(Self.hostile) }, "\(what): \(decoded)")
    }
  }

  @Test func theEscaperWritesEveryHostileCharacterAsAnEscape() throws {
    let quoted = JSONText.quote(Self.hostile)
    #expect(quoted == #""a\u007fb\u2028c\u2029d\u0001e\u001bfég""#)
    #expect(JSONText.quote("a/b", escapingSolidus: true) == #""a\/b""#)
    #expect(JSONText.quote("\u{2027}\u{202A}€") == "\"\u{2027}\u{202A}€\"")
    let encoded = try JSONText.encode([Self.hostile])
    #expect(rawHostileBytes(in: encoded).isEmpty)
    #expect(try JSONSerialization.jsonObject(with: encoded) as? [String] == [Self.hostile])
  }

  @Test func propertyListConversionToJSON() async throws {
    try await withTemporaryDirectory("json-escaping") { directory in
      // XML 1.0 cannot hold C0 controls, so a JSON property list carries the whole name.
      let json = Data(#"{"k":"#.utf8) + Data(JSONText.quote(Self.hostile).utf8) + Data("}".utf8)
      let (status, output, errors) = await run(
        ["plist", "convert", "--to", "json", "-o", "-", "-"], in: directory, input: json)
      #expect(status == 0, "\(errors)")
      try expectEscaped(output, "plist convert --to json")
    }
  }

  @Test func progressEventsOfPack() async throws {
    try await withTemporaryDirectory("json-escaping") { directory in
      let package = directory.appendingPathComponent(Self.hostile)
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
      try Data("text".utf8).write(to: package.appendingPathComponent("page.txt"))
      let (status, _, errors) = await run(
        ["pack", Self.hostile, "-o", "out.zip", "--progress", "json"], in: directory)
      #expect(status == 0, "\(errors)")
      try expectEscaped(Data(errors.utf8), lines: true, "pack --progress json")
    }
  }

  @Test func typeIdentificationAsJSON() async throws {
    try await withTemporaryDirectory("json-escaping") { directory in
      try Data("text".utf8).write(to: directory.appendingPathComponent(Self.hostile + ".txt"))
      let (status, output, errors) = await run(
        ["types", "identify", "--format", "json", Self.hostile + ".txt"], in: directory)
      #expect(status == 0, "\(errors)")
      try expectEscaped(output, "types identify --format json")
    }
  }

  @Test func notebookExportToJSON() async throws {
    try await withTemporaryDirectory("json-escaping") { directory in
      let notebook = directory.appendingPathComponent("N.examplenotebook")
      try FileManager.default.copyItem(at: ProjectPaths.sampleNotebook, to: notebook)
      let metadataURL = notebook.appendingPathComponent("metadata.json")
      var metadata =
        try JSONSerialization.jsonObject(with: Data(contentsOf: metadataURL)) as! [String: Any]
      metadata["title"] = Self.hostile
      try JSONSerialization.data(withJSONObject: metadata).write(to: metadataURL)
      let (status, output, errors) = await run(
        [
          "export", "N.examplenotebook", "--to", "json", "-o", "-", "--declarations",
          ProjectPaths.sampleInfoPlist.path,
        ], in: directory)
      #expect(status == 0, "\(errors)")
      try expectEscaped(output, "export --to json")
    }
  }

  /// The validator's reports escape a message's controls for display before JSON does, so
  /// they are checked for raw bytes and well-formed documents, not for the name whole.
  @Test(arguments: ["json", "sarif"]) func validationReports(format: String) async throws {
    try await withTemporaryDirectory("json-escaping") { directory in
      let declaration: [String: Any] = [
        "UTExportedTypeDeclarations": [
          ["UTTypeIdentifier": "com.example." + Self.hostile, "UTTypeConformsTo": ["public.data"]]
        ]
      ]
      try JSONSerialization.data(withJSONObject: declaration)
        .write(to: directory.appendingPathComponent("Info.plist"))
      let (status, output, errors) = await run(
        ["validate", "--format", format, "Info.plist"], in: directory)
      #expect(status == 1, "\(errors)")
      try expectEscaped(output, keepsName: false, "validate --format \(format)")
      #expect(String(decoding: output, as: UTF8.self).contains("com.example.a"))
    }
  }
}
