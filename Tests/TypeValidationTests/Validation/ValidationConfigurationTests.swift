import FolioSystem
import Foundation
import PropertyLists
import Testing
import TypeValidation
import UniformTypes

@Suite struct ValidationConfigurationTests {
  static func load(_ text: String, name: String = ".folio.yml") throws -> ValidationConfiguration {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "folio-config-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return try ValidationConfiguration.load(from: url, displayName: name)
  }

  @Test func theDocumentedSubsetReadsIntoSettings() throws {
    let configuration = try Self.load(
      """
      ---
      # every form the subset has
      disable: [missing-handler-rank, "empty-declaration"]
      warning:
        - reserved-identifier   # a comment after a value
      error: 'duplicate-extension'
      define:
        PRODUCT_BUNDLE_IDENTIFIER: com.example.app
        "QUOTED": "a \\"b\\" \\u00e9"
        BUILD: 42
      baseline: ci/baseline.json
      exclude: [Vendor, Tests/Fixtures/]
      strict: true
      schema: false
      """)
    #expect(configuration.rules.settings["missing-handler-rank"] == .disabled)
    #expect(configuration.rules.settings["empty-declaration"] == .disabled)
    #expect(configuration.rules.settings["reserved-identifier"] == .severity(.warning))
    #expect(configuration.rules.settings["duplicate-extension"] == .severity(.error))
    #expect(
      configuration.definitions == [
        "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app", "QUOTED": "a \"b\" é", "BUILD": "42",
      ])
    #expect(configuration.baseline?.lastPathComponent == "baseline.json")
    #expect(configuration.baseline?.deletingLastPathComponent().lastPathComponent == "ci")
    #expect(configuration.excludedNames == ["Vendor"])
    #expect(configuration.excludedPaths.map(\.lastPathComponent) == ["Fixtures"])
    #expect(configuration.strict == true)
    #expect(configuration.schema == false)
    #expect(configuration.preprocess == nil)
  }

  @Test func jsonTakesTheSameKeys() throws {
    let configuration = try Self.load(
      #"{"disable": ["missing-handler-rank"], "define": {"A": "1"}, "strict": false}"#,
      name: ".folio.json")
    #expect(configuration.rules.settings == ["missing-handler-rank": .disabled])
    #expect(configuration.definitions == ["A": "1"])
    #expect(configuration.strict == false)
  }

  @Test(arguments: [
    ("key: |\n  text\n", 1, 6),
    ("key: {a: b}\n", 1, 6),
    ("key: *alias\n", 1, 6),
    ("key: !tag x\n", 1, 6),
    ("define:\n  A:\n    B: c\n", 2, 3),
    ("disable: [a, [b]]\n", 1, 14),
    ("disable: [a\n", 1, 12),
    ("key: \"open\n", 1, 6),
    ("disable:\n  - a\n    - b\n", 3, 5),
    ("define:\n", 1, 1),
    ("a:b\n", 1, 3),
  ])
  func everythingOutsideTheSubsetIsRefusedWithItsPlace(_ text: String, _ line: Int, _ column: Int) {
    let error = #expect(throws: UniformTypeError.self) { try Self.load(text) }
    #expect(error?.code == .invalidConfiguration)
    #expect(
      error?.location?.line == line && error?.location?.column == column,
      "\(text): \(error?.description ?? "")")
  }

  @Test func theBaselineBlursLineNumbersInMessagesAndCountsRepeats() throws {
    let diagnostic = Diagnostic(
      severity: .error, code: "duplicate-identifier",
      message: "a.b is exported again; first declared at Info.plist:12:5 (line 12, byte 40, x@9)",
      location: SourceLocation(file: "Info.plist", line: 30, column: 4))
    var moved = diagnostic
    moved.message =
      "a.b is exported again; first declared at Info.plist:14:5 (line 14, byte 52, x@11)"
    moved.location?.line = 32
    let baseline = ValidationBaseline(
      accepting: ValidationReport(files: ["Info.plist"], diagnostics: [diagnostic]))
    let report = ValidationReport(files: ["Info.plist"], diagnostics: [moved, moved])
    let filtered = baseline.filtering(report)
    #expect(filtered.baselined == 1)
    #expect(filtered.diagnostics.count == 1)
    let file = try #require(
      try JSONSerialization.jsonObject(with: baseline.data()) as? [String: Any])
    #expect(file["version"] as? Int == 1)
    let findings = try #require(file["findings"] as? [[String: String]])
    #expect(findings.first?["message"]?.contains("Info.plist:#:# (line #, byte #, x@#)") == true)
  }
}
