import FolioCommands
import FolioTestSupport
import Foundation
import PropertyLists
import Testing

@Suite struct PlistConvertTests {
  private func run(_ arguments: [String], in directory: URL, input: Data = Data()) async
    -> (Int32, Data, String)
  {
    let context = CommandContext(
      standardOutput: .buffer(), standardError: .buffer(), readStandardInput: { input },
      currentDirectory: directory.path)
    let status = await FolioMain.run(arguments, context: context)
    return (status, context.standardOutput.data, context.standardError.text)
  }

  @Test func convertsToEveryFormatAndBack() async throws {
    try await withTemporaryDirectory("convert") { directory in
      let source = directory.appendingPathComponent("Info.plist")
      try FileManager.default.copyItem(at: ProjectPaths.sampleInfoPlist, to: source)
      let original = try PropertyListReader.read(contentsOf: source).root
      for format in ["binary", "xml"] {
        let (status, output, errors) = await run(
          ["plist", "convert", "--to", format, "-o", "out.\(format)", "Info.plist"], in: directory)
        #expect(status == 0, "\(errors)")
        #expect(output.isEmpty)
        let converted = try PropertyListReader.read(
          contentsOf: directory.appendingPathComponent("out.\(format)"))
        #expect(converted.format.rawValue == format)
        #expect(converted.root == original)
      }
    }
  }

  @Test func replacesTheFileInPlaceLikePlutil() async throws {
    try await withTemporaryDirectory("convert") { directory in
      let file = directory.appendingPathComponent("a.plist")
      try Data("<plist><array><integer>1</integer></array></plist>".utf8).write(to: file)
      let (status, _, _) = await run(["plist", "convert", "--to=binary", "a.plist"], in: directory)
      #expect(status == 0)
      #expect(try Data(contentsOf: file).starts(with: Data("bplist00".utf8)))
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["a.plist"])
    }
  }

  @Test func standardInputToStandardOutput() async throws {
    try await withTemporaryDirectory("convert") { directory in
      let input = Data("<plist><dict><key>k</key><string>v/w</string></dict></plist>".utf8)
      let (status, output, _) = await run(
        ["plist", "convert", "--to", "json", "-"], in: directory, input: input)
      #expect(status == 0)
      #expect(String(decoding: output, as: UTF8.self) == #"{"k":"v\/w"}"#)
    }
  }

  @Test func jsonRefusalLeavesNoOutput() async throws {
    try await withTemporaryDirectory("convert") { directory in
      try Data("<plist><array>\n<date>2024-01-01T00:00:00Z</date></array></plist>".utf8)
        .write(to: directory.appendingPathComponent("d.plist"))
      let (status, _, errors) = await run(
        ["plist", "convert", "--to", "json", "-o", "d.json", "d.plist"], in: directory)
      #expect(status == 1)
      #expect(errors.hasPrefix("d.plist:2:1: error: JSON cannot hold a date value"))
      #expect(
        !FileManager.default.fileExists(atPath: directory.appendingPathComponent("d.json").path))
    }
  }

  @Test func invalidInputFailsWithItsPosition() async throws {
    try await withTemporaryDirectory("convert") { directory in
      try Data("<plist>\n<integer>x</integer></plist>".utf8)
        .write(to: directory.appendingPathComponent("i.plist"))
      let (status, _, errors) = await run(
        ["plist", "convert", "--to", "xml", "-o", "-", "i.plist"], in: directory)
      #expect(status == 1)
      #expect(errors == "i.plist:2:1: error: <integer> 'x' is not a 64-bit integer\n")
    }
  }

  /// Inputs whose top dictionary repeats `a` (first "first", then "second") beside `b`, with an
  /// inner dictionary that repeats `x`: as XML, JSON and binary.
  static func duplicateKeyInputs() throws -> [(name: String, data: Data)] {
    let xml = """
      <plist><dict><key>a</key><string>first</string><key>b</key><integer>1</integer>
      <key>a</key><string>second</string>
      <key>inner</key><dict><key>x</key><true/><key>x</key><false/></dict></dict></plist>
      """
    let json = #"{"a":"first","b":1,"a":"second","inner":{"x":true,"x":false}}"#
    let binary = try PropertyListWriter.data(
      for: try PropertyListReader.read(Data(xml.utf8), file: "x").root, format: .binary)
    return [("dup.xml", Data(xml.utf8)), ("dup.json", Data(json.utf8)), ("dup.bin", binary)]
  }

  @Test func repeatedKeysAreWrittenOnceAsFoundationReadsThemInEveryFormat() async throws {
    // Foundation keeps the last value from XML and JSON, the first from binary.
    let firstWins = PropertyListValue(
      .dictionary([
        .init(key: "a", value: PropertyListValue(.string("first"))),
        .init(key: "b", value: PropertyListValue(.integer(1))),
        .init(
          key: "inner",
          value: PropertyListValue(
            .dictionary([.init(key: "x", value: PropertyListValue(.boolean(true)))]))),
      ]))
    let lastWins = PropertyListValue(
      .dictionary([
        .init(key: "a", value: PropertyListValue(.string("second"))),
        .init(key: "b", value: PropertyListValue(.integer(1))),
        .init(
          key: "inner",
          value: PropertyListValue(
            .dictionary([.init(key: "x", value: PropertyListValue(.boolean(false)))]))),
      ]))
    try await withTemporaryDirectory("convert") { directory in
      for input in try Self.duplicateKeyInputs() {
        try input.data.write(to: directory.appendingPathComponent(input.name))
        for format in ["xml", "binary", "json"] {
          let (status, output, errors) = await run(
            ["plist", "convert", "--to", format, "-o", "-", input.name], in: directory)
          #expect(status == 0, "\(input.name) → \(format): \(errors)")
          let warnings = errors.split(separator: "\n").filter {
            $0.contains("[FOLIO-PLIST-DUPLICATE-KEY]") && $0.contains("value wins")
          }
          #expect(warnings.count == 2, "\(input.name) → \(format): \(errors)")
          let written = try PropertyListReader.read(output, file: "out")
          let expected = input.name.hasSuffix(".bin") ? firstWins : lastWins
          #expect(written.root == expected, "\(input.name) → \(format)")
          #expect(written.diagnostics.isEmpty, "\(input.name) → \(format)")
        }
      }
    }
  }

  @Test(.enabled(if: programExists("plutil")))
  func repeatedKeysReadAsPlutilReadsThem() async throws {
    try await withTemporaryDirectory("convert") { directory in
      for input in try Self.duplicateKeyInputs() {
        let file = directory.appendingPathComponent(input.name)
        try input.data.write(to: file)
        let oracle = try runProcess("plutil", ["-convert", "json", "-o", "-", file.path])
        #expect(oracle.status == 0, "\(oracle.errorText)")
        let (status, output, _) = await run(
          ["plist", "convert", "--to", "json", "-o", "-", input.name], in: directory)
        #expect(status == 0)
        let ours = try JSONSerialization.jsonObject(with: output) as? NSDictionary
        let theirs = try JSONSerialization.jsonObject(with: oracle.standardOutput) as? NSDictionary
        #expect(ours != nil && ours == theirs, "\(input.name)")
      }
    }
  }

  @Test func badOrMissingFormatIsAUsageError() async throws {
    try await withTemporaryDirectory("convert") { directory in
      let (missing, _, missingErrors) = await run(["plist", "convert", "a.plist"], in: directory)
      #expect(missing == 64)
      #expect(missingErrors.contains("missing option '--to'"))
      let (bad, _, badErrors) = await run(["plist", "convert", "--to", "yaml", "a"], in: directory)
      #expect(bad == 64)
      #expect(badErrors.contains("expected one of xml, binary, json"))
    }
  }
}
