import FolioCommands
import FolioTestSupport
import Foundation
import Testing

@Suite struct TypesCommandTests {
  /// No desktop database, so results do not depend on what the machine has installed.
  static let isolated = ["XDG_DATA_DIRS": "/nonexistent", "XDG_DATA_HOME": "/nonexistent"]

  private func run(
    _ arguments: [String], in folder: URL, environment: [String: String] = isolated
  ) async -> (status: Int32, output: String, error: String) {
    let context = CommandContext(
      standardOutput: .buffer(), standardError: .buffer(), environment: environment,
      currentDirectory: folder.path)
    let status = await FolioMain.run(arguments, context: context)
    return (status, context.standardOutput.text, context.standardError.text)
  }

  @Test func listFiltersByConformanceNamedByExtension() async throws {
    try await withTemporaryDirectory("types-list") { folder in
      let result = await run(["types", "list", "--conforming-to", ".gz"], in: folder)
      #expect(result.status == 0)
      let identifiers = result.output.split(separator: "\n").map {
        $0.split(separator: "\t").first ?? ""
      }
      #expect(identifiers == ["org.gnu.gnu-zip-archive", "org.gnu.gnu-zip-tar-archive"])
      #expect(
        result.output.contains(
          "org.gnu.gnu-zip-tar-archive\tgzip-compressed tar archive\t.tgz .tar.gz\t"))
      let unknown = await run(["types", "list", "--conforming-to", "nothing-here"], in: folder)
      #expect(unknown.status == 64)
    }
  }

  @Test func showPrintsDeclarationTagsAndConformanceTree() async throws {
    try await withTemporaryDirectory("types-show") { folder in
      let result = await run(
        ["types", "show", "--declarations", ProjectPaths.sampleInfoPlist.path, "examplenotebook"],
        in: folder)
      #expect(result.status == 0)
      #expect(result.output.contains("identifier: com.example.notebook\n"))
      #expect(result.output.contains("description: Example Notebook\n"))
      #expect(result.output.contains("declared: exported in \(ProjectPaths.sampleInfoPlist.path):"))
      #expect(result.output.contains("public.filename-extension: examplenotebook\n"))
      #expect(
        result.output.hasSuffix(
          """
          conformance:
            com.example.notebook
              com.apple.package
                public.directory
                  public.item
              public.composite-content
                public.content

          """))
      let unknown = await run(["types", "show", "com.example.nothing"], in: folder)
      #expect(unknown.status == 1)
      #expect(unknown.error.contains("unknown type"))
    }
  }

  @Test func conformsAnswersWithTheExitStatus() async throws {
    try await withTemporaryDirectory("types-conforms") { folder in
      let yes = await run(
        ["types", "conforms", "public.utf8-plain-text", "public.data"], in: folder)
      #expect(yes.status == 0)
      #expect(yes.output == "public.utf8-plain-text conforms to public.data\n")
      let no = await run(["types", "conforms", "txt", "public.image"], in: folder)
      #expect(no.status == 1)
      #expect(no.output == "public.plain-text does not conform to public.image\n")
      let undeclared = await run(
        ["types", "conforms", "com.example.x", "com.example.x"], in: folder)
      #expect(undeclared.status == 0)
    }
  }

  @Test func identifyTypesPackagesFoldersFilesAndLinks() async throws {
    try await withTemporaryDirectory("types-identify") { folder in
      let manager = FileManager.default
      try manager.createDirectory(
        at: folder.appendingPathComponent("N.examplenotebook/pages"),
        withIntermediateDirectories: true)
      try Data("{}".utf8).write(
        to: folder.appendingPathComponent("N.examplenotebook/metadata.json"))
      try Data().write(to: folder.appendingPathComponent("backup.tar.gz"))
      try manager.createSymbolicLink(
        atPath: folder.appendingPathComponent("link").path, withDestinationPath: "backup.tar.gz")
      let result = await run(
        [
          "types", "identify", "--declarations", ProjectPaths.sampleInfoPlist.path,
          "N.examplenotebook", "N.examplenotebook/pages", "N.examplenotebook/metadata.json",
          "backup.tar.gz", "link", "missing",
        ], in: folder)
      #expect(result.status == 1)
      #expect(
        result.output == """
          N.examplenotebook\tcom.example.notebook
          N.examplenotebook/pages\tpublic.folder
          N.examplenotebook/metadata.json\tpublic.json
          backup.tar.gz\torg.gnu.gnu-zip-tar-archive
          link\tpublic.symlink

          """)
      #expect(result.error == "error: missing: no such file or directory\n")
    }
  }

  @Test func declarationsComeFromTypesPathAndTheUserDatabase() async throws {
    try await withTemporaryDirectory("types-path") { folder in
      let shared = folder.appendingPathComponent("shared")
      let user = folder.appendingPathComponent("data/folio/types")
      try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
      try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
      try Data(infoPlist(exported: typeDict("com.example.shared", extensions: ["shr"])).utf8)
        .write(to: shared.appendingPathComponent("a.plist"))
      try Data(
        infoPlist(
          exported: typeDict("com.example.shared", extensions: ["other"])
            + typeDict("com.example.user", extensions: ["usr"])
        ).utf8
      ).write(to: user.appendingPathComponent("b.plist"))
      let environment = [
        "FOLIO_TYPES_PATH": shared.path + "::/nonexistent", "XDG_DATA_HOME": folder.path + "/data",
        "XDG_DATA_DIRS": "/nonexistent",
      ]
      let result = await run(
        ["types", "list", "--conforming-to", "public.data"], in: folder, environment: environment)
      #expect(result.status == 0)
      #expect(result.output.contains("com.example.shared\t\t.shr\t"))
      #expect(result.output.contains("com.example.user\t\t.usr\t"))
      #expect(result.error.contains("[conflicting-declaration]"))
    }
  }

  /// A desktop database in `folder/share/mime/packages/test.xml`, and the environment that reads it.
  private func desktop(in folder: URL) throws -> [String: String] {
    let packages = folder.appendingPathComponent("share/mime/packages")
    try FileManager.default.createDirectory(at: packages, withIntermediateDirectories: true)
    try Data(
      """
      <?xml version="1.0"?>
      <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
        <mime-type type="application/x-folio-test">
          <comment>Folio test data</comment>
          <comment xml:lang="fr">Données de test</comment>
          <acronym>FTD</acronym>
          <generic-icon name="x-office-document"/>
          <glob pattern="*.ftd" weight="60"/>
          <magic priority="80"><match type="string" value="FOLIO-TEST" offset="0:8"/></magic>
        </mime-type>
        <mime-type type="text/plain"><glob pattern="*.txt"/></mime-type>
        <mime-type type="application/xml">
          <magic priority="40"><match type="string" value="&lt;?xml" offset="0"/></magic>
        </mime-type>
        <mime-type type="image/svg+xml">
          <glob pattern="*.svg"/>
          <root-XML namespaceURI="http://www.w3.org/2000/svg" localName="svg"/>
        </mime-type>
      </mime-info>
      """.utf8
    ).write(to: packages.appendingPathComponent("test.xml"))
    return [
      "XDG_DATA_DIRS": folder.appendingPathComponent("share").path, "XDG_DATA_HOME": "/nonexistent",
    ]
  }

  @Test func theDatabaseIsKeptInXDGCacheHomeAndADamagedCacheChangesNothing() async throws {
    try await withTemporaryDirectory("types-cache") { folder in
      var environment = try desktop(in: folder)
      let cacheHome = folder.appendingPathComponent("cache-home")
      environment["XDG_CACHE_HOME"] = cacheHome.path
      try Data("xxFOLIO-TEST data".utf8).write(to: folder.appendingPathComponent("mystery"))
      let arguments = ["types", "identify", "--content", "--all", "mystery"]
      let uncached = await run(
        arguments, in: folder,
        environment: environment.merging(["XDG_CACHE_HOME": "/dev/null"]) { $1 })
      #expect(uncached.status == 0, "\(uncached.error)")
      #expect(uncached.output.contains("application/x-folio-test"))
      let writing = await run(arguments, in: folder, environment: environment)
      let cacheFolder = cacheHome.appendingPathComponent("folio")
      let files = try FileManager.default.contentsOfDirectory(atPath: cacheFolder.path)
      #expect(files.count == 1 && files[0].hasSuffix(".cache"), "\(files)")
      let reading = await run(arguments, in: folder, environment: environment)
      try Data("damaged".utf8).write(to: cacheFolder.appendingPathComponent(files[0]))
      let afterDamage = await run(arguments, in: folder, environment: environment)
      for result in [writing, reading, afterDamage] {
        #expect(result.status == 0)
        #expect(result.output == uncached.output)
        #expect(result.error == uncached.error)
      }
    }
  }

  @Test func identifyReadsContentWhenTheNameSaysNothingOrWhenAsked() async throws {
    try await withTemporaryDirectory("types-identify-content") { folder in
      let environment = try desktop(in: folder)
      try Data("xxFOLIO-TEST data".utf8).write(to: folder.appendingPathComponent("mystery"))
      try Data("xxFOLIO-TEST data".utf8).write(to: folder.appendingPathComponent("notes.txt"))
      try Data("plain words".utf8).write(to: folder.appendingPathComponent("words.txt"))
      let byName = await run(
        ["types", "identify", "mystery", "notes.txt"], in: folder, environment: environment)
      #expect(byName.status == 0)
      #expect(
        byName.output == """
          mystery\torg.freedesktop.mime.application.x-folio-test
          notes.txt\tpublic.plain-text

          """)
      let byContent = await run(
        ["types", "identify", "--content", "--all", "notes.txt", "words.txt"], in: folder,
        environment: environment)
      #expect(byContent.status == 0, "\(byContent.error)")
      #expect(
        byContent.output == """
          notes.txt\torg.freedesktop.mime.application.x-folio-test
          \tpublic.plain-text\tname\tglob *.txt\t50\ttext/plain
          \torg.freedesktop.mime.application.x-folio-test\tcontent\tmagic\t80\tapplication/x-folio-test
          words.txt\tpublic.plain-text
          \tpublic.plain-text\tname\tglob *.txt\t50\ttext/plain
          \tpublic.utf8-plain-text\tcontent\tUTF-8 text\t0\t

          """)
    }
  }

  @Test func identifyWritesOneJSONArray() async throws {
    try await withTemporaryDirectory("types-identify-json") { folder in
      let environment = try desktop(in: folder)
      try Data("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)
        .write(to: folder.appendingPathComponent("drawing"))
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("N.examplenotebook"), withIntermediateDirectories: true)
      let result = await run(
        [
          "types", "identify", "--format", "json", "--all", "--declarations",
          ProjectPaths.sampleInfoPlist.path, "drawing", "N.examplenotebook", "missing",
        ], in: folder, environment: environment)
      #expect(result.status == 1)
      #expect(result.error.isEmpty)
      let records = try #require(
        try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
      #expect(records.count == 3)
      #expect(records[0]["path"] as? String == "drawing")
      #expect(records[0]["identifier"] as? String == "public.svg-image")
      #expect(records[0]["by"] as? String == "content")
      #expect((records[0]["mimeTypes"] as? [String])?.first == "image/svg+xml")
      let candidates = try #require(records[0]["candidates"] as? [[String: Any]])
      #expect(candidates.first?["rule"] as? String == "root-XML http://www.w3.org/2000/svg svg")
      #expect(candidates.first?["strength"] as? Int == 80)
      #expect(records[1]["identifier"] as? String == "com.example.notebook")
      #expect(records[1]["by"] as? String == "name")
      #expect(records[2]["path"] as? String == "missing")
      #expect(records[2]["error"] as? String == "no such file or directory")
      #expect(records[2]["identifier"] == nil)
      let bad = await run(["types", "identify", "--format", "yaml", "x"], in: folder)
      #expect(bad.status == 64)
    }
  }

  @Test func showAndListIncludeTheDesktopsTypesInTheUsersLanguage() async throws {
    try await withTemporaryDirectory("types-desktop-show") { folder in
      var environment = try desktop(in: folder)
      environment["LANG"] = "fr_FR.UTF-8"
      let show = await run(["types", "show", "ftd"], in: folder, environment: environment)
      #expect(show.status == 0, "\(show.error)")
      #expect(show.output.contains("identifier: org.freedesktop.mime.application.x-folio-test\n"))
      #expect(show.output.contains("description: Données de test\n"))
      #expect(
        show.output.contains(
          "declared: by the shared MIME database, \(folder.path)/share/mime/packages/test.xml:3\n"))
      #expect(show.output.contains("globs (application/x-folio-test): *.ftd (weight 60)\n"))
      #expect(show.output.contains("acronym: FTD\n"))
      #expect(show.output.contains("generic icon: x-office-document\n"))
      let svg = await run(
        ["types", "show", "public.svg-image"], in: folder, environment: environment)
      #expect(svg.output.contains("declared: by the system (compiled into folio)\n"))
      #expect(svg.output.contains("also described: by the shared MIME database, "))
      let isolatedList = await run(["types", "list"], in: folder)
      let desktopList = await run(["types", "list"], in: folder, environment: environment)
      let isolatedCount = isolatedList.output.split(separator: "\n").count
      #expect(isolatedCount == 890)
      #expect(desktopList.output.split(separator: "\n").count == isolatedCount + 1)
    }
  }

  @Test func aBrokenDesktopDatabaseIsReportedAndTheRestStillWorks() async throws {
    try await withTemporaryDirectory("types-desktop-broken") { folder in
      let packages = folder.appendingPathComponent("share/mime/packages")
      try FileManager.default.createDirectory(at: packages, withIntermediateDirectories: true)
      try Data(
        "<mime-info xmlns=\"http://www.freedesktop.org/standards/shared-mime-info\">\n<oops>".utf8
      )
      .write(to: packages.appendingPathComponent("broken.xml"))
      let environment = ["XDG_DATA_DIRS": folder.appendingPathComponent("share").path]
      let result = await run(["types", "show", "png"], in: folder, environment: environment)
      #expect(result.status == 0)
      #expect(result.output.hasPrefix("identifier: public.png\n"))
      #expect(result.error.contains("broken.xml:"))
      #expect(result.error.contains("[mime-malformed-xml]"))
    }
  }
}
