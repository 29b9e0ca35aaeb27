import FolioCommands
import FolioTestSupport
import Foundation
import Testing

@Suite struct ValidateCommandTests {
  private func run(_ arguments: [String], files: [String: String], stdin: Data = Data())
    async throws
    -> (status: Int32, output: String, error: String)
  {
    try await withTemporaryDirectory("validate-cmd") { folder in
      for (name, text) in files {
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
      }
      let context = CommandContext(
        standardOutput: .buffer(), standardError: .buffer(), readStandardInput: { stdin },
        currentDirectory: folder.path)
      let status = await FolioMain.run(arguments, context: context)
      return (status, context.standardOutput.text, context.standardError.text)
    }
  }

  private let bad = infoPlist(exported: typeDict("public.thing"))

  @Test func humanOutputGoesToStandardErrorWithHintAndSummary() async throws {
    let result = try await run(["validate", "Info.plist"], files: ["Info.plist": bad])
    #expect(result.status == 1)
    #expect(result.output.isEmpty)
    let lines = result.error.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("Info.plist:11:7: error: exported type public.thing") == true)
    #expect(lines.first?.hasSuffix("[reserved-identifier]") == true)
    #expect(lines.dropFirst().first?.hasPrefix("  hint: ") == true)
    #expect(lines.last == "1 error, 0 warnings in 1 file")
  }

  @Test func githubFormatWritesWorkflowCommands() async throws {
    let result = try await run(
      ["validate", "--format", "github", "A, b.plist"], files: ["A, b.plist": bad])
    #expect(result.status == 1)
    #expect(
      result.output.hasPrefix(
        "::error file=A%2C b.plist,line=11,col=7,title=reserved-identifier::exported type public.thing"
      ))
  }

  @Test func sarifFormatIsAVersion210LogWithRulesAndResults() async throws {
    let result = try await run(
      ["validate", "--format", "sarif", "Info.plist"], files: ["Info.plist": bad])
    #expect(result.status == 1)
    let log = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    #expect(log["version"] as? String == "2.1.0")
    let runs = try #require(log["runs"] as? [[String: Any]])
    let results = try #require(runs.first?["results"] as? [[String: Any]])
    #expect(results.count == 1)
    #expect(results.first?["ruleId"] as? String == "reserved-identifier")
    #expect(results.first?["level"] as? String == "error")
    let tool = try #require(runs.first?["tool"] as? [String: Any])
    let driver = try #require(tool["driver"] as? [String: Any])
    let rules = try #require(driver["rules"] as? [[String: Any]])
    let index = try #require(results.first?["ruleIndex"] as? Int)
    #expect(rules[index]["id"] as? String == "reserved-identifier")
    let location = try #require((results.first?["locations"] as? [[String: Any]])?.first)
    let physical = try #require(location["physicalLocation"] as? [String: Any])
    #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "Info.plist")
    #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == 11)
  }

  @Test func jsonFormatHasTheFieldsTheSchemaRequires() async throws {
    let result = try await run(
      ["validate", "--format", "json", "Info.plist"], files: ["Info.plist": bad])
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let schemaURL = ProjectPaths.schemas.appendingPathComponent("validate-output.schema.json")
    let schema = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL)) as? [String: Any])
    let required = try #require(schema["required"] as? [String])
    #expect(Set(document.keys) == Set(required))
    let summary = try #require(document["summary"] as? [String: Int])
    #expect(summary == ["files": 1, "errors": 1, "warnings": 0, "notes": 0, "baselined": 0])
    let definitions = try #require(schema["$defs"] as? [String: Any])
    let diagnostic = try #require(definitions["diagnostic"] as? [String: Any])
    let allowed = try #require((diagnostic["properties"] as? [String: Any]).map { Set($0.keys) })
    for entry in try #require(document["diagnostics"] as? [[String: Any]]) {
      #expect(Set(entry.keys).isSubset(of: allowed))
    }
  }

  @Test func standardInputIsNamedDash() async throws {
    let result = try await run(["validate", "-"], files: [:], stdin: Data(bad.utf8))
    #expect(result.status == 1)
    #expect(result.error.hasPrefix("-:11:7: error:"))
  }

  @Test func badArgumentsAreUsageErrors() async throws {
    let format = try await run(["validate", "--format", "xml", "a"], files: [:])
    #expect(format.status == 64)
    let define = try await run(["validate", "-D", "NOVALUE", "a"], files: [:])
    #expect(define.status == 64)
    #expect(define.error.contains("NAME=VALUE"))
    let none = try await run(["validate"], files: [:])
    #expect(none.status == 64)
  }

  @Test func missingFileIsAnUnreadableFileError() async throws {
    let result = try await run(["validate", "nope.plist"], files: [:])
    #expect(result.status == 1)
    #expect(result.error.contains("[unreadable-file]"))
  }
}
