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
