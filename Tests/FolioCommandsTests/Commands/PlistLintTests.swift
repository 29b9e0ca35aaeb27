import FolioCommands
import FolioTestSupport
import Foundation
import PropertyLists
import Testing

@Suite struct PlistLintTests {
  private func run(_ arguments: [String], in directory: URL, input: Data = Data()) async
    -> (Int32, String, String)
  {
    let context = CommandContext(
      standardOutput: .buffer(), standardError: .buffer(), readStandardInput: { input },
      currentDirectory: directory.path)
    let status = await FolioMain.run(arguments, context: context)
    return (status, context.standardOutput.text, context.standardError.text)
  }

  @Test func validFilesPrintOKLikePlutil() async throws {
    try await withTemporaryDirectory("lint") { directory in
      try FileManager.default.copyItem(
        at: ProjectPaths.sampleInfoPlist, to: directory.appendingPathComponent("Info.plist"))
      let (status, output, errors) = await run(["plist", "lint", "Info.plist"], in: directory)
      #expect(status == 0)
      #expect(output == "Info.plist: OK\n")
      #expect(errors.isEmpty)
    }
  }

  @Test func invalidFilePrintsLineAndColumnAndFails() async throws {
    try await withTemporaryDirectory("lint") { directory in
      try Data("<plist>\n<dict>\n  <key>UTTypeIdentifier</key>\n</dict>\n</plist>\n".utf8)
        .write(to: directory.appendingPathComponent("Bad.plist"))
      try Data("<plist><true/></plist>".utf8).write(
        to: directory.appendingPathComponent("Good.plist"))
      let (status, output, errors) = await run(
        ["plist", "lint", "Bad.plist", "Good.plist"], in: directory)
      #expect(status == 1)
      #expect(output == "Good.plist: OK\n")
      #expect(errors == "Bad.plist:3:3: error: <key> 'UTTypeIdentifier' has no value\n")
    }
  }

  @Test func warningsArePrintedButDoNotFail() async throws {
    try await withTemporaryDirectory("lint") { directory in
      try Data("<plist><dict><key>a</key><true/>\n<key>a</key><false/></dict></plist>".utf8)
        .write(to: directory.appendingPathComponent("Dup.plist"))
      let (status, output, errors) = await run(["plist", "lint", "-s", "Dup.plist"], in: directory)
      #expect(status == 0)
      #expect(output.isEmpty)
      #expect(
        errors
          == "Dup.plist:2:1: warning: key 'a' repeats in this <dict> (first at line 1); the last value wins [FOLIO-PLIST-DUPLICATE-KEY]\n"
      )
    }
  }

  @Test func binaryErrorsNameTheByteOffset() async throws {
    try await withTemporaryDirectory("lint") { directory in
      var data = try PropertyListWriter.data(
        for: PropertyListValue(.array([PropertyListValue(.string("x"))])), format: .binary)
      data.removeLast(40)
      let (status, _, errors) = await run(["plist", "lint", "-"], in: directory, input: data)
      #expect(status == 1)
      #expect(errors.hasPrefix("-@"))
      #expect(errors.contains(": error: "))
    }
  }

  @Test func missingFileFails() async throws {
    try await withTemporaryDirectory("lint") { directory in
      let (status, _, errors) = await run(["plist", "lint", "none.plist"], in: directory)
      #expect(status == 1)
      #expect(errors == "none.plist: error: cannot read none.plist: No such file or directory\n")
    }
  }

  @Test func needsAFile() async throws {
    try await withTemporaryDirectory("lint") { directory in
      let (status, _, errors) = await run(["plist", "lint"], in: directory)
      #expect(status == 64)
      #expect(errors.contains("missing argument FILE"))
    }
  }

  @Test func builtBinaryLintsTheSample() throws {
    let result = try FolioBinary.run(["plist", "lint", ProjectPaths.sampleInfoPlist.path])
    #expect(result.status == 0)
    #expect(result.outputText == "\(ProjectPaths.sampleInfoPlist.path): OK\n")
  }
}
