import FolioCommands
import FolioTestSupport
import Foundation
import Testing

@Suite struct TypesCommandTests {
  private func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:])
    async -> (status: Int32, output: String, error: String)
  {
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
      ]
      let result = await run(
        ["types", "list", "--conforming-to", "public.data"], in: folder, environment: environment)
      #expect(result.status == 0)
      #expect(result.output.contains("com.example.shared\t\t.shr\t"))
      #expect(result.output.contains("com.example.user\t\t.usr\t"))
      #expect(result.error.contains("[conflicting-declaration]"))
    }
  }
}
