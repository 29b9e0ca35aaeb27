import FolioCommands
import FolioTestSupport
import Foundation
import Testing

/// `folio validate` as a team sets it up in CI: folders, configuration files, rule settings,
/// baselines, templates, and output that a crafted file cannot forge.
@Suite struct ValidateSetupTests {
  struct Result {
    var status: Int32
    var output: String
    var error: String
  }

  /// Runs folio in `folder/cwd` (relative), after writing `files` (relative paths) under `folder`.
  static func run(
    _ arguments: [String], files: [String: String], cwd: String = "",
    environment: [String: String] = [:],
    prepare: (URL) throws -> Void = { _ in }
  ) async throws -> Result {
    try await withTemporaryDirectory("validate-setup") { folder in
      for (path, text) in files {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
      }
      try prepare(folder)
      let directory = cwd.isEmpty ? folder : folder.appendingPathComponent(cwd)
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let context = CommandContext(
        standardOutput: .buffer(), standardError: .buffer(), environment: environment,
        currentDirectory: directory.path)
      let status = await FolioMain.run(arguments, context: context)
      return Result(
        status: status, output: context.standardOutput.text, error: context.standardError.text)
    }
  }

  static let good = infoPlist(
    exported: typeDict("com.example.doc", extensions: ["exdoc"]),
    documentTypes: documentTypeDict(contentTypes: ["com.example.doc"]))
  static let noRank = infoPlist(
    exported: typeDict("com.example.norank", extensions: ["nr"]),
    documentTypes: documentTypeDict(rank: nil, contentTypes: ["com.example.norank"]))
  static let bad = infoPlist(exported: typeDict("public.thing"))

  static func reportFiles(_ output: String) throws -> [String] {
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    return try #require(document["files"] as? [String])
  }

  // MARK: Folders

  @Test func aFolderIsSearchedForPropertyListsSkippingBuildFolders() async throws {
    let declarations = infoPlist(imported: typeDict("org.example.shared", extensions: ["shr"]))
    let result = try await Self.run(
      ["validate", "--format", "json", "App"],
      files: [
        "App/Info.plist": Self.good,
        "App/Widget/Widget-Info.plist": infoPlist(
          documentTypes: documentTypeDict(contentTypes: ["com.example.doc"])),
        "App/Resources/Types.plist": declarations,
        "App/Resources/Settings.plist": "<plist><dict><key>a</key><true/></dict></plist>",
        "App/build/Info.plist": Self.bad,
        "App/.build/x/Info.plist": Self.bad,
        "App/DerivedData/Info.plist": Self.bad,
        "App/Pods/Lib/Info.plist": Self.bad,
        "App/node_modules/m/Info.plist": Self.bad,
        "App/.git/Info.plist": Self.bad,
      ],
      prepare: { folder in
        // A link back up the tree is never followed.
        try FileManager.default.createSymbolicLink(
          atPath: folder.appendingPathComponent("App/Resources/loop").path,
          withDestinationPath: "..")
      })
    #expect(
      try Self.reportFiles(result.output) == [
        "App/Info.plist", "App/Resources/Types.plist", "App/Widget/Widget-Info.plist",
      ])
    #expect(result.status == 0, "\(result.output)")
  }

  @Test func aFolderWithoutPropertyListsIsAnError() async throws {
    let result = try await Self.run(["validate", "Empty"], files: ["Empty/readme.txt": "hi"])
    #expect(result.status == 1)
    #expect(result.error.contains("Empty holds no Info.plist"))
    #expect(result.error.contains("[no-property-lists]"))
    #expect(!result.error.contains("NSCocoaErrorDomain"))
  }

  // MARK: Rule settings

  @Test func optionsDisableOrChangeTheSeverityOfARule() async throws {
    let files = ["Info.plist": Self.noRank]
    let plain = try await Self.run(["validate", "--strict", "Info.plist"], files: files)
    #expect(plain.status == 1)
    #expect(plain.error.contains("[missing-handler-rank]"))
    let disabled = try await Self.run(
      ["validate", "--strict", "--disable", "missing-handler-rank", "Info.plist"], files: files)
    #expect(disabled.status == 0, "\(disabled.error)")
    let raised = try await Self.run(
      ["validate", "--error", "missing-handler-rank", "Info.plist"], files: files)
    #expect(raised.status == 1)
    #expect(raised.error.contains("error: document type 'Doc' has no LSHandlerRank"))
    let lowered = try await Self.run(
      ["validate", "--warning", "reserved-identifier", "Info.plist"],
      files: ["Info.plist": Self.bad])
    #expect(lowered.status == 0)
    #expect(lowered.error.contains("warning: exported type public.thing"))
  }

  @Test func anUnknownRuleIsAUsageErrorThatSuggestsTheClosest() async throws {
    let result = try await Self.run(
      ["validate", "--disable", "missing-handler-rnk", "Info.plist"],
      files: ["Info.plist": Self.good])
    #expect(result.status == 64)
    #expect(
      result.error.contains(
        "no rule is named 'missing-handler-rnk'; did you mean missing-handler-rank?"))
  }

  @Test func aConfigurationFileIsFoundUpwardFromTheWorkingFolder() async throws {
    let yaml = """
      # Folio settings for the whole repository
      disable:
        - missing-handler-rank
      warning: [reserved-identifier]
      define:
        PRODUCT_BUNDLE_IDENTIFIER: com.example.app
      strict: true
      """
    let result = try await Self.run(
      ["validate", "Info.plist", "Other.plist", "Vars.plist"],
      files: [
        ".folio.yml": yaml,
        "Sources/App/Info.plist": Self.noRank,
        "Sources/App/Other.plist": Self.bad,
        "Sources/App/Vars.plist": infoPlist(
          exported: typeDict("$(PRODUCT_BUNDLE_IDENTIFIER).x", extensions: ["vx"])),
      ], cwd: "Sources/App")
    // strict: the lowered reserved-identifier warning fails the run; nothing else is reported.
    #expect(result.status == 1)
    #expect(result.error.contains("warning: exported type public.thing"))
    #expect(!result.error.contains("missing-handler-rank"))
    #expect(!result.error.contains("unresolved-variable"))
    let json = try await Self.run(
      ["validate", "--format", "json", "Info.plist"],
      files: [".folio.json": #"{"disable": ["missing-handler-rank"]}"#, "Info.plist": Self.noRank])
    #expect(json.status == 0, "\(json.output)")
    let ignored = try await Self.run(
      ["validate", "--no-config", "--strict", "Info.plist"],
      files: [".folio.json": #"{"disable": ["missing-handler-rank"]}"#, "Info.plist": Self.noRank])
    #expect(ignored.status == 1)
  }

  @Test(arguments: [
    ("disable: [missing-handler-rnk]\n", ".folio.yml:1:11: no rule is named 'missing-handler-rnk'"),
    (
      "disabel: [missing-handler-rank]\n",
      ".folio.yml:1:1: unknown key 'disabel'; did you mean disable?"
    ),
    ("disable:\n\t- x\n", ".folio.yml:2:1: a tab"),
    ("disable: &anchor [a]\n", ".folio.yml:1:10: '&' starts YAML that is not in Folio's subset"),
    ("strict: yes\n", ".folio.yml:1:9: 'yes' means different things"),
    (
      "disable: [missing-handler-rank]\nerror: [missing-handler-rank]\n",
      ".folio.yml:2:9: the rule missing-handler-rank is listed under both disable and error"
    ),
    ("disable:\n  - a\n  b: c\n", ".folio.yml:3:3: a block mixes"),
    ("strict: true\nstrict: false\n", ".folio.yml:2:1: the key 'strict' is given twice"),
  ])
  func aMalformedConfigurationIsAUsageErrorNamingItsLine(_ yaml: String, _ message: String)
    async throws
  {
    let result = try await Self.run(
      ["validate", "Info.plist"], files: [".folio.yml": yaml, "Info.plist": Self.good])
    #expect(result.status == 64, "\(yaml)")
    #expect(result.error.contains(message), "\(result.error)")
  }

  @Test func twoConfigurationFilesInOneFolderAreAUsageError() async throws {
    let result = try await Self.run(
      ["validate", "Info.plist"],
      files: [".folio.yml": "strict: true\n", ".folio.json": "{}", "Info.plist": Self.good])
    #expect(result.status == 64)
    #expect(result.error.contains(".folio.yml and .folio.json; keep one"))
  }

  // MARK: Baselines

  @Test func aBaselineLetsOnlyNewFindingsFail() async throws {
    try await withTemporaryDirectory("baseline") { folder in
      func run(_ arguments: [String]) async -> (Int32, String) {
        let context = CommandContext(
          standardOutput: .buffer(), standardError: .buffer(), environment: [:],
          currentDirectory: folder.path)
        let status = await FolioMain.run(arguments, context: context)
        return (status, context.standardError.text)
      }
      let plist = folder.appendingPathComponent("Info.plist")
      try Data(Self.bad.utf8).write(to: plist)
      let (wrote, wroteText) = await run([
        "validate", "--write-baseline", "baseline.json", "Info.plist",
      ])
      #expect(wrote == 0)
      #expect(wroteText.contains("wrote 1 finding to the baseline baseline.json"))
      let (known, knownText) = await run(["validate", "--baseline", "baseline.json", "Info.plist"])
      #expect(known == 0, "\(knownText)")
      #expect(
        knownText.contains("no problems in 1 file (1 known finding in the baseline not shown)"))
      // Lines move above the old finding, and a new one appears: only the new one fails.
      let moved = Self.bad.replacingOccurrences(
        of: "<dict>\n", with: "<dict>\n  <key>A</key>\n  <string>a</string>\n"
      )
      .replacingOccurrences(
        of: "  </array>\n", with: typeDict("public.other-invented") + "  </array>\n")
      try Data(moved.utf8).write(to: plist)
      let (again, againText) = await run(["validate", "--baseline", "baseline.json", "Info.plist"])
      #expect(again == 1)
      #expect(againText.contains("public.other-invented"))
      #expect(!againText.contains("public.thing"))
      #expect(againText.contains("(1 known finding in the baseline not shown)"))
    }
  }

  // MARK: Templates

  static let preprocessed = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    #include "Shared.h"
      <key>UTExportedTypeDeclarations</key>
      <array>
        <dict>
          <key>UTTypeIdentifier</key>
    #ifdef BETA
          <string>com.example.doc-beta</string>
    #else
          <string>com.example.doc</string>
    #endif
          <key>UTTypeConformsTo</key>
          <array><string>public.data</string></array>
          <key>UTTypeTagSpecification</key>
          <dict><key>public.filename-extension</key><string>EXTENSION</string></dict>
        </dict>
      </array>
    </dict>
    </plist>
    """

  @Test func aPreprocessedInfoPlistIsReportedOnceAsATemplate() async throws {
    let result = try await Self.run(
      ["validate", "--format", "json", "Info.plist"], files: ["Info.plist": Self.preprocessed])
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?["code"] as? String == "build-template")
    #expect(diagnostics.first?["line"] as? Int == 4)
    #expect(diagnostics.first?["severity"] as? String == "warning")
    #expect((diagnostics.first?["hint"] as? String)?.contains("--preprocess") == true)
    #expect(result.status == 0)
  }

  @Test func preprocessRunsTheDirectivesWithTheDefinitionsAndKeepsLines() async throws {
    let text = Self.preprocessed.replacingOccurrences(
      of: "#include \"Shared.h\"\n", with: "#define EXTENSION exdoc\n")
    let result = try await Self.run(
      ["validate", "--preprocess", "--format", "json", "-D", "BETA=1", "Info.plist"],
      files: ["Info.plist": text.replacingOccurrences(of: "public.data", with: "public.dat")])
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
    // The only finding is the misspelt parent, on its own line of the template (15).
    #expect(diagnostics.map { $0["code"] as? String } == ["unknown-system-type"])
    #expect(diagnostics.first?["line"] as? Int == 15)
    #expect((diagnostics.first?["message"] as? String)?.contains("com.example.doc-beta") == true)
    let included = try await Self.run(
      ["validate", "--preprocess", "Info.plist"], files: ["Info.plist": Self.preprocessed])
    #expect(included.status == 1)
    #expect(
      included.error.contains(
        "Info.plist:4: error: cannot preprocess: #include \"Shared.h\" names a file Folio cannot follow"
      ))
  }

  @Test func anM4TemplateIsReportedOnceAsATemplate() async throws {
    let text = try String(
      contentsOf: ProjectPaths.plistCorpus.appendingPathComponent(
        "HandBrake__HandBrake__macosx__Info.plist.m4.plist"), encoding: .utf8)
    let result = try await Self.run(["validate", "Info.plist.m4"], files: ["Info.plist.m4": text])
    #expect(result.status == 0)
    #expect(
      result.error.hasPrefix(
        "Info.plist.m4:1:1: warning: Info.plist.m4 is a m4 template (dnl at line 1)"))
    #expect(result.error.contains("0 errors, 1 warning in 1 file"))
  }

  // MARK: One verdict with the schemas

  @Test func aSchemaFindingARuleCoversIsReportedOnceByTheRule() async throws {
    let fixture = infoPlist(
      documentTypes: documentTypeDict(
        rank: "Default", contentTypes: ["public.plain-text"],
        extra: "      <key>LSTypeIsPackage</key>\n      <integer>0</integer>\n"))
    let result = try await Self.run(
      ["validate", "--schema", "--format", "json", "Info.plist"], files: ["Info.plist": fixture])
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.map { $0["code"] as? String } == ["wrong-value-type"], "\(diagnostics)")
    #expect(
      diagnostics.first?["line"] as? Int == Fixture(text: fixture).position(of: "<integer>0").line)
    #expect(result.status == 0)
  }

  @Test func theSchemaAcceptsAnyPlistVersionAsApplesDTDDoes() async throws {
    let old = Self.good.replacingOccurrences(
      of: "<plist version=\"1.0\">", with: "<plist version=\"0.9\">")
    let accepted = try await Self.run(
      ["validate", "--schema", "--strict", "Info.plist"], files: ["Info.plist": old])
    #expect(accepted.status == 0, "\(accepted.error)")
  }

  // MARK: Output a crafted file cannot forge

  @Test func controlCharactersFromAPlistAreEscapedInEveryFormat() async throws {
    // JSON carries any control character (XML 1.0 cannot carry ESC).
    let forged = #"com.example.x\r\nInfo.plist:1:1: error: forged\u001b[31m"#
    let files = [
      "Info.plist":
        #"{"UTExportedTypeDeclarations":[{"UTTypeIdentifier":"\#(forged)","UTTypeConformsTo":["public.data"]}]}"#
    ]
    for format in ["human", "github", "json", "sarif"] {
      let result = try await Self.run(["validate", "--format", format, "Info.plist"], files: files)
      let text = format == "human" ? result.error : result.output
      #expect(!text.contains("\u{1B}"), "\(format)")
      #expect(!text.contains("\r"), "\(format)")
      let forgedLines = text.split(separator: "\n").filter {
        $0.hasPrefix("Info.plist:1:1: error: forged")
      }
      #expect(forgedLines.isEmpty, "\(format)")
      #expect(
        text.contains(#"\r\nInfo.plist:1:1: error: forged\u{1B}[31m"#)
          || text.contains(#"\\r\\nInfo.plist"#), "\(format): \(text)")
    }
  }

  // MARK: SARIF

  @Test func sarifNamesTheToolItsRulePagesAndTheExitCode() async throws {
    let result = try await Self.run(
      ["validate", "--format", "sarif", "Info.plist"], files: ["Info.plist": Self.bad])
    let log = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
    #expect((driver["informationUri"] as? String)?.hasPrefix("https://") == true)
    let rules = try #require(driver["rules"] as? [[String: Any]])
    for rule in rules {
      let id = try #require(rule["id"] as? String)
      #expect((rule["helpUri"] as? String)?.hasSuffix("docs/rules/\(id).md") == true, "\(id)")
    }
    let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
    #expect(invocation["exitCode"] as? Int == 1)
    #expect(invocation["executionSuccessful"] as? Bool == false)
    let message = try #require(
      ((run["results"] as? [[String: Any]])?.first?["message"] as? [String: Any])?["text"]
        as? String)
    #expect(message.contains(" domain only Apple declares. Hint: "))
  }
}
