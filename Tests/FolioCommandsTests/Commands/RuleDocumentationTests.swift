import FolioCommands
import FolioTestSupport
import Foundation
import Testing
import UniformTypes

/// `docs/rules/`: one page per rule, each with a bad example the rule reports and a good one it
/// does not, run here exactly as the page shows them.
@Suite struct RuleDocumentationTests {
  static let folder = ProjectPaths.root.appendingPathComponent("docs/rules")

  /// One example: the command after `folio`, and the files it reads.
  struct Example {
    var arguments: [String]
    var files: [(name: String, text: String)]
  }

  /// The `## Bad` and `## Good` sections of a page: a ```sh block holding `folio …`, then one
  /// fenced block per file, its info string naming the file (```xml Info.plist).
  static func examples(in page: String) -> [String: Example] {
    var result: [String: Example] = [:]
    var section: String?
    var fence: (info: String, lines: [String])?
    for line in page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if var open = fence {
        if line == "```" {
          let words = open.info.split(separator: " ").map(String.init)
          if let section {
            if words.first == "sh", let command = open.lines.first, command.hasPrefix("folio ") {
              result[section, default: Example(arguments: [], files: [])].arguments =
                command.dropFirst("folio ".count).split(separator: " ").map(String.init)
            } else if words.count == 2 {
              result[section, default: Example(arguments: [], files: [])].files.append(
                (words[1], open.lines.joined(separator: "\n") + "\n"))
            }
          }
          fence = nil
        } else {
          open.lines.append(line)
          fence = open
        }
        continue
      }
      if line.hasPrefix("## ") { section = String(line.dropFirst(3)) }
      if line.hasPrefix("```") { fence = (String(line.dropFirst(3)), []) }
    }
    return result
  }

  static func run(_ example: Example) async throws -> String {
    try await withTemporaryDirectory("rule-docs") { folder in
      for file in example.files {
        let url = folder.appendingPathComponent(file.name)
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(file.text.utf8).write(to: url)
      }
      let context = CommandContext(
        standardOutput: .buffer(), standardError: .buffer(), environment: [:],
        currentDirectory: folder.path)
      _ = await FolioMain.run(example.arguments, context: context)
      return context.standardOutput.text + context.standardError.text
    }
  }

  @Test func everyRuleHasAPageAndTheIndexListsEveryRule() throws {
    let index = try String(
      contentsOf: Self.folder.appendingPathComponent("README.md"), encoding: .utf8)
    for rule in ValidationRule.all {
      #expect(
        FileManager.default.fileExists(
          atPath: ProjectPaths.root.appendingPathComponent(rule.documentationPath).path), "\(rule)")
      #expect(
        index.contains("[`\(rule.code)`](\(rule.code).md) | \(rule.severity.rawValue) |"), "\(rule)"
      )
    }
    let pages = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
      .filter { $0.hasSuffix(".md") && $0 != "README.md" }
    #expect(Set(pages) == Set(ValidationRule.all.map { "\($0.code).md" }))
  }

  @Test(arguments: ValidationRule.all.map(\.code))
  func theBadExampleIsReportedAndTheGoodOneIsNot(_ code: String) async throws {
    let page = try String(
      contentsOf: Self.folder.appendingPathComponent("\(code).md"), encoding: .utf8)
    #expect(page.hasPrefix("# `\(code)`\n"))
    let severity = try #require(ValidationRule.named(code)?.severity)
    #expect(page.contains("**Severity:** \(severity.rawValue)."))
    let examples = Self.examples(in: page)
    let bad = try #require(examples["Bad"], "\(code): no Bad section")
    let good = try #require(examples["Good"], "\(code): no Good section")
    #expect(!bad.files.isEmpty && !bad.arguments.isEmpty && !good.arguments.isEmpty)
    let badOutput = try await Self.run(bad)
    #expect(badOutput.contains("[\(code)]"), "\(code) bad example: \(badOutput)")
    let goodOutput = try await Self.run(good)
    #expect(!goodOutput.contains("[\(code)]"), "\(code) good example: \(goodOutput)")
  }
}
