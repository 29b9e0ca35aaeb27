import FolioTestSupport
import Foundation
import Testing

/// One test per validation rule: a minimal fixture, the rule code, its position and the exit status.
@Suite struct ValidateRuleTests {
  /// The rules whose minimal fixture gives exactly one finding: each case is a fixture, the
  /// rule's code and severity, the marker its position is at, and the exit status.
  @Test(arguments: RuleCase.singleFinding)
  func ruleReportsOneFindingAtItsPosition(_ rule: RuleCase) async throws {
    let fixture = Fixture(text: rule.text)
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: rule.code, severity: rule.severity,
      at: fixture.position(of: rule.marker, after: rule.after), status: rule.status)
  }

  @Test func invalidParentIdentifierWithTrailingSpace() async throws {
    let fixture = Fixture(
      text: infoPlist(imported: typeDict("io.example.audio", conformsTo: ["public.mpeg-4-audio "])))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "invalid-identifier", severity: "error",
      at: fixture.position(of: "<string>public.mpeg-4-audio "), status: 1)
    #expect(run.with(code: "invalid-identifier").first?.message.contains("whitespace") == true)
  }

  @Test func dynamicIdentifierIsAWarningThatStrictTurnsIntoFailure() async throws {
    let fixture = Fixture(text: infoPlist(imported: typeDict("dyn.ah62d4rv4ge8043a")))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "dynamic-identifier", severity: "warning",
      at: fixture.position(of: "<string>dyn."), status: 0)
    let strict = try await runValidate([fixture], arguments: ["--strict"])
    #expect(strict.status == 1)
  }

  @Test func duplicateIdentifier() async throws {
    let fixture = Fixture(
      text: infoPlist(exported: typeDict("com.example.doc") + typeDict("com.example.doc")))
    let run = try await runValidate([fixture])
    let second = fixture.position(
      of: "<string>com.example.doc", after: "<string>com.example.doc</string>")
    expectSingle(run, code: "duplicate-identifier", severity: "error", at: second, status: 1)
  }

  @Test func duplicateIdentifierAcrossFiles() async throws {
    let first = Fixture(name: "A.plist", text: infoPlist(exported: typeDict("com.example.doc")))
    let second = Fixture(name: "B.plist", text: infoPlist(exported: typeDict("com.example.doc")))
    let run = try await runValidate([first, second])
    #expect(run.with(code: "duplicate-identifier").map(\.file) == ["B.plist"])
    #expect(run.status == 1)
  }

  @Test func importsOfOneTypeInSeveralFilesAreNotDuplicates() async throws {
    // An app and its extensions, or several apps validated from one folder, each import the types
    // they open; an extension imports what its app exports.
    let app = Fixture(
      name: "App-Info.plist",
      text: infoPlist(
        exported: typeDict("com.example.doc"), imported: typeDict("org.opml.opml")))
    let viewer = Fixture(
      name: "Viewer-Info.plist",
      text: infoPlist(imported: typeDict("org.opml.opml") + typeDict("com.example.doc")))
    let run = try await runValidate([app, viewer])
    #expect(run.with(code: "duplicate-identifier").isEmpty)
    #expect(run.with(code: "exported-and-imported").isEmpty)
    #expect(run.status == 0)
  }

  @Test func duplicateImportInOneFileIsReported() async throws {
    let fixture = Fixture(
      text: infoPlist(imported: typeDict("org.opml.opml") + typeDict("org.opml.opml")))
    let run = try await runValidate([fixture])
    let second = fixture.position(
      of: "<string>org.opml.opml", after: "<string>org.opml.opml</string>")
    expectSingle(run, code: "duplicate-identifier", severity: "error", at: second, status: 1)
  }

  @Test func exportedAndImported() async throws {
    let fixture = Fixture(
      text: infoPlist(exported: typeDict("org.opml.opml"), imported: typeDict("org.opml.opml")))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "exported-and-imported", severity: "warning",
      at: fixture.position(of: "<string>org.opml.opml", after: "UTImportedTypeDeclarations"),
      status: 0)
  }

  @Test func unknownSupertypeInTheTypesOwnDomainIsAnError() async throws {
    let fixture = Fixture(
      text: infoPlist(
        imported: typeDict("org.example.torrent", conformsTo: ["org.example.base-torrent"])
          + typeDict("org.example.video", conformsTo: ["public.video-ish"])))
    let run = try await runValidate([fixture])
    let matches = run.with(code: "unknown-supertype")
    #expect(matches.map(\.severity) == ["error"])
    let position = fixture.position(of: "<string>org.example.base-torrent")
    #expect(matches.first?.line == position.line)
    #expect(matches.first?.column == position.column)
    // In Apple's domains, an Apple app (or a later release) may declare it: a warning that
    // does not read as the user's typo.
    let system = run.with(code: "unknown-system-type")
    #expect(system.map(\.severity) == ["warning"])
    #expect(system.first?.message.contains("none of Apple's systems declares") == true)
    #expect(system.first?.hint?.contains("spelling") != true)
    #expect(run.status == 1)
  }

  @Test func conformanceCycleThroughAnotherType() async throws {
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict("com.example.a", conformsTo: ["com.example.b"])
          + typeDict("com.example.b", conformsTo: ["public.data", "com.example.a"])))
    let run = try await runValidate([fixture])
    let cycles = run.with(code: "conformance-cycle")
    #expect(cycles.count == 2)
    let position = fixture.position(of: "<string>com.example.b</string>")
    #expect(cycles.first?.line == position.line)
    #expect(cycles.first?.column == position.column)
    #expect(run.status == 1)
  }

  @Test func unknownKeySuggestsTheRightOne() async throws {
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict(
          "com.example.doc",
          extra: "      <key>UTTypeConformTo</key>\n      <string>public.data</string>\n")))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "unknown-key", severity: "warning",
      at: fixture.position(of: "<key>UTTypeConformTo"), status: 0)
    #expect(run.with(code: "unknown-key").first?.hint == "did you mean UTTypeConformsTo?")
  }

  @Test func invalidExtension() async throws {
    let fixture = Fixture(
      text: infoPlist(exported: typeDict("com.example.doc", extensions: [".exdoc"])))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "invalid-extension", severity: "error",
      at: fixture.position(of: "<string>.exdoc"), status: 1)
    #expect(run.with(code: "invalid-extension").first?.hint == "write 'exdoc', without the dot")
  }

  @Test func invalidRoleSuggestsTheSpelling() async throws {
    let fixture = Fixture(text: infoPlist(documentTypes: documentTypeDict(role: "editor")))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "invalid-role", severity: "error",
      at: fixture.position(of: "<string>editor"), status: 1)
    #expect(run.with(code: "invalid-role").first?.hint == "write Editor")
  }

  @Test func unresolvedVariableAndItsResolutionByDefine() async throws {
    let fixture = Fixture(
      text: infoPlist(exported: typeDict("$(TYPE_PREFIX).doc")))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "unresolved-variable", severity: "warning",
      at: fixture.position(of: "<string>$(TYPE_PREFIX"), status: 0)
    #expect(run.diagnostics.first?.hint == "-D TYPE_PREFIX=value resolves it")
    let defined = try await runValidate(
      [fixture], arguments: ["-D", "TYPE_PREFIX=com.example.app"])
    #expect(defined.diagnostics.isEmpty)
    #expect(defined.status == 0)
  }

  @Test func unreadableFileKeepsValidatingTheOthers() async throws {
    let broken = Fixture(name: "Broken.plist", text: "<plist>\n<dict>\n<key>a</key>\n</plist>\n")
    let good = Fixture(name: "Good.plist", text: infoPlist(exported: typeDict("public.nope")))
    let run = try await runValidate([broken, good])
    let unreadable = run.with(code: "unreadable-file")
    #expect(unreadable.count == 1)
    #expect(unreadable.first?.file == "Broken.plist")
    #expect(unreadable.first?.line != nil)
    #expect(run.with(code: "reserved-identifier").first?.file == "Good.plist")
    #expect(run.status == 1)
  }

  @Test func schemaViolationHasALine() async throws {
    // An attribute Apple's DTD does not declare: only the schema pass sees it.
    let fixture = Fixture(
      text: infoPlist(documentTypes: documentTypeDict())
        .replacingOccurrences(
          of: "<plist version=\"1.0\">", with: "<plist version=\"1.0\" flavour=\"x\">"))
    let plain = try await runValidate([fixture])
    #expect(plain.with(code: "schema-violation").isEmpty)
    let run = try await runValidate([fixture], arguments: ["--schema"])
    let violations = run.with(code: "schema-violation")
    #expect(violations.count == 1)
    #expect(violations.first?.line == fixture.position(of: "<plist").line)
    #expect(violations.first?.message.contains("flavour") == true)
    #expect(run.status == 1)
  }

  @Test func schemaAndRulesGiveOneVerdictOnAStringForABoolean() async throws {
    let fixture = Fixture(
      text: infoPlist(
        documentTypes: documentTypeDict(
          extra: "      <key>LSTypeIsPackage</key>\n      <string>YES</string>\n")))
    let run = try await runValidate([fixture], arguments: ["--schema"])
    #expect(run.with(code: "schema-violation").isEmpty)
    expectSingle(
      run, code: "wrong-value-type", severity: "error",
      at: fixture.position(of: "<string>YES"), status: 1)
  }

  @Test func theSampleAppIsCleanEvenWhenStrictWithSchemas() async throws {
    let text = try String(contentsOf: ProjectPaths.sampleInfoPlist, encoding: .utf8)
    let run = try await runValidate(
      [Fixture(name: "Info.plist", text: text)], arguments: ["--strict", "--schema"])
    #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map(\.message))")
    #expect(run.status == 0)
  }
}

/// One rule's minimal fixture and the single finding it must give.
struct RuleCase: Sendable, CustomTestStringConvertible {
  var name: String
  var text: String
  var code: String
  var severity: String
  var marker: String
  var after: String? = nil
  var status: Int32

  init(
    _ name: String, _ text: String, code: String, severity: String, marker: String,
    after: String? = nil, status: Int32
  ) {
    self.name = name
    self.text = text
    self.code = code
    self.severity = severity
    self.marker = marker
    self.after = after
    self.status = status
  }

  var testDescription: String { name }

  static let singleFinding: [RuleCase] = [
    RuleCase(
      "missingIdentifier", infoPlist(exported: typeDict(nil)),
      code: "missing-identifier", severity: "error", marker: "<dict>",
      after: "UTExportedTypeDeclarations", status: 1),
    RuleCase(
      "invalidIdentifier", infoPlist(exported: typeDict("org.vim.c++-source")),
      code: "invalid-identifier", severity: "error", marker: "<string>org.vim", status: 1),
    RuleCase(
      "reservedIdentifier", infoPlist(exported: typeDict("public.thing")),
      code: "reserved-identifier", severity: "error", marker: "<string>public.thing", status: 1),
    RuleCase(
      "redeclaredSystemType",
      infoPlist(imported: typeDict("public.plain-text", conformsTo: ["public.text"])),
      code: "redeclared-system-type", severity: "warning", marker: "<string>public.plain-text",
      status: 0),
    RuleCase(
      "conformanceToItself",
      infoPlist(
        exported: typeDict("com.example.self", conformsTo: ["public.data", "com.example.self"])),
      code: "conformance-cycle", severity: "error", marker: "<string>com.example.self",
      after: "UTTypeConformsTo", status: 1),
    RuleCase(
      "missingBaseType",
      infoPlist(exported: typeDict("com.example.abstract", conformsTo: ["public.content"])),
      code: "missing-base-type", severity: "error", marker: "<string>com.example.abstract",
      status: 1),
    RuleCase(
      "dataAndPackage",
      infoPlist(
        exported: typeDict("com.example.both", conformsTo: ["public.data", "com.apple.package"])),
      code: "data-and-package", severity: "error", marker: "<string>com.example.both", status: 1),
    RuleCase(
      "packageNotConformingWhenTheDocumentTypeSaysPackage",
      infoPlist(
        exported: typeDict("com.example.notebook", extensions: ["examplenotebook"]),
        documentTypes: documentTypeDict(
          contentTypes: ["com.example.notebook"],
          extra: "      <key>LSTypeIsPackage</key>\n      <true/>\n")),
      code: "package-not-conforming", severity: "error", marker: "<string>com.example.notebook",
      status: 1),
    RuleCase(
      "packageNotConformingForABundleExtension",
      infoPlist(exported: typeDict("com.example.plugin", extensions: ["bundle"])),
      code: "package-not-conforming", severity: "error", marker: "<string>com.example.plugin",
      status: 1),
    RuleCase(
      "wrongValueType",
      infoPlist(
        exported: typeDict(
          "com.example.doc", conformsTo: [],
          extra: "      <key>UTTypeConformsTo</key>\n      <integer>3</integer>\n")),
      code: "wrong-value-type", severity: "error", marker: "<integer>3", status: 1),
    RuleCase(
      "integerForABooleanIsAWarning",
      infoPlist(
        documentTypes: documentTypeDict(
          extra: "      <key>LSTypeIsPackage</key>\n      <integer>0</integer>\n")),
      code: "wrong-value-type", severity: "warning", marker: "<integer>0", status: 0),
    RuleCase(
      "extensionWithAPathSeparator",
      infoPlist(
        documentTypes: documentTypeDict(
          extra:
            "      <key>CFBundleTypeExtensions</key>\n      <array>\n        <string>a/b</string>\n      </array>\n"
        )),
      code: "invalid-extension", severity: "error", marker: "<string>a/b", status: 1),
    RuleCase(
      "duplicateExtensionBetweenExportedTypes",
      infoPlist(
        exported: typeDict("com.example.one", extensions: ["exdoc"])
          + typeDict("com.example.two", extensions: ["EXDOC"])),
      code: "duplicate-extension", severity: "warning", marker: "<string>EXDOC", status: 0),
    RuleCase(
      "invalidMIMEType",
      infoPlist(
        exported: typeDict(
          "com.example.doc",
          extra: """
                  <key>UTTypeTagSpecification</key>
                  <dict>
                    <key>public.mime-type</key>
                    <string>notamime</string>
                  </dict>

            """)),
      code: "invalid-mime-type", severity: "error", marker: "<string>notamime", status: 1),
    RuleCase(
      "invalidOSType",
      infoPlist(
        documentTypes: documentTypeDict(
          extra:
            "      <key>CFBundleTypeOSTypes</key>\n      <array>\n        <string>SQL</string>\n      </array>\n"
        )),
      code: "invalid-ostype", severity: "warning", marker: "<string>SQL", status: 0),
    RuleCase(
      "invalidHandlerRank", infoPlist(documentTypes: documentTypeDict(rank: "Primary")),
      code: "invalid-handler-rank", severity: "error", marker: "<string>Primary", status: 1),
    RuleCase(
      "missingHandlerRank", infoPlist(documentTypes: documentTypeDict(rank: nil)),
      code: "missing-handler-rank", severity: "warning", marker: "<dict>",
      after: "CFBundleDocumentTypes", status: 0),
    RuleCase(
      "undeclaredContentType",
      infoPlist(documentTypes: documentTypeDict(contentTypes: ["com.example.nowhere"])),
      code: "undeclared-content-type", severity: "error", marker: "<string>com.example.nowhere",
      status: 1),
    RuleCase(
      "emptyDeclaration", infoPlist(imported: typeDict("org.example.bare", conformsTo: [])),
      code: "empty-declaration", severity: "warning", marker: "<string>org.example.bare", status: 0),
  ]
}
