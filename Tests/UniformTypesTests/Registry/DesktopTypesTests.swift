import FolioSystem
import FolioTestSupport
import Foundation
import Testing
import UniformTypes

/// The registry with a small shared MIME database written for these tests, so every rule
/// of the merge and of identification is pinned whatever database the machine has.
@Suite struct DesktopTypesTests {
  static let database = MIMEDatabase.parse(
    mimeInfo(
      """
        <mime-type type="image/png">
          <comment>PNG image</comment>
          <alias type="image/x-png"/>
          <glob pattern="*.png"/>
          <magic priority="50"><match type="string" value="\\x89PNG" offset="0"/></magic>
        </mime-type>
        <mime-type type="application/zip">
          <comment>Zip archive</comment>
          <magic priority="40"><match type="string" value="PK\\003\\004" offset="0"/></magic>
          <glob pattern="*.zip"/>
        </mime-type>
        <mime-type type="application/vnd.openxmlformats-officedocument.wordprocessingml.document">
          <comment>Word 2007 document</comment>
          <sub-class-of type="application/zip"/>
          <glob pattern="*.docx"/>
        </mime-type>
        <mime-type type="text/x-csrc">
          <comment>C source code</comment>
          <glob pattern="*.c" case-sensitive="true"/>
        </mime-type>
        <mime-type type="text/x-c++src">
          <comment>C++ source code</comment>
          <glob pattern="*.C" case-sensitive="true"/>
          <glob pattern="*.cpp"/>
        </mime-type>
        <mime-type type="text/x-makefile">
          <comment>Makefile</comment>
          <glob pattern="Makefile"/>
          <glob pattern="*.mk"/>
        </mime-type>
        <mime-type type="text/x-maketemplate">
          <comment>Make template</comment>
          <glob pattern="Make*"/>
        </mime-type>
        <mime-type type="application/x-alpha">
          <comment>Alpha data</comment>
          <comment xml:lang="de">Alpha-Daten</comment>
          <acronym>AD</acronym>
          <expanded-acronym>Alpha Data</expanded-acronym>
          <generic-icon name="x-office-document"/>
          <glob pattern="*.dat" weight="60"/>
          <glob pattern="*.tar.dat"/>
        </mime-type>
        <mime-type type="application/x-beta">
          <comment>Beta data</comment>
          <glob pattern="*.dat"/>
          <glob pattern="*.bet"/>
        </mime-type>
        <mime-type type="application/x-strong">
          <comment>Strong signature</comment>
          <magic priority="80"><match type="string" value="STRONG!" offset="0"/></magic>
        </mime-type>
        <mime-type type="application/x-weak">
          <comment>Weak signature</comment>
          <magic priority="40"><match type="string" value="WEAK!" offset="0:10"/></magic>
        </mime-type>
        <mime-type type="video/mp2t">
          <comment>MPEG-2 transport stream</comment>
          <glob pattern="*.ts"/>
          <magic priority="60"><match type="byte" value="0x47" offset="0">
            <match type="byte" value="0x47" offset="188"/></match></magic>
        </mime-type>
        <mime-type type="text/vnd.trolltech.linguist">
          <comment>message catalog</comment>
          <sub-class-of type="application/xml"/>
          <glob pattern="*.ts"/>
          <root-XML namespaceURI="" localName="TS"/>
        </mime-type>
        <mime-type type="application/xml">
          <comment>XML document</comment>
          <sub-class-of type="text/plain"/>
          <glob pattern="*.xml"/>
          <magic priority="40"><match type="string" value="&lt;?xml" offset="0"/></magic>
        </mime-type>
        <mime-type type="image/svg+xml">
          <comment>SVG image</comment>
          <sub-class-of type="application/xml"/>
          <glob pattern="*.svg"/>
          <root-XML namespaceURI="http://www.w3.org/2000/svg" localName="svg"/>
        </mime-type>
        <mime-type type="text/plain">
          <comment>plain text document</comment>
          <glob pattern="*.txt"/>
        </mime-type>
        <mime-type type="application/x-zerosize">
          <comment>empty document</comment>
        </mime-type>
        <mime-type type="image/x-own">
          <comment>Own image</comment>
          <glob pattern="*.own"/>
        </mime-type>
        <mime-type type="text/x-own">
          <comment>Own text</comment>
        </mime-type>
        <mime-type type="application/ld+json">
          <comment>JSON-LD document</comment>
          <glob pattern="*.jsonld"/>
        </mime-type>
      """), file: "test.xml", languages: ["de"])

  static let registry: TypeRegistry = {
    var builder = TypeRegistryBuilder()
    builder.add(database, languages: ["de"])
    return builder.build()
  }()

  private var registry: TypeRegistry { Self.registry }

  private func identify(_ name: String, _ content: [UInt8]? = nil) -> TypeIdentification {
    registry.identification(forFileNamed: name, kind: .regularFile, content: content)
  }

  private func identify(_ name: String, text: String) -> TypeIdentification {
    identify(name, Array(text.utf8))
  }

  // MARK: Merging

  @Test func aTypeBothDatabasesDescribeIsOneTypeWithTheUnionOfItsTags() throws {
    #expect(Self.database.diagnostics.isEmpty, "\(Self.database.diagnostics)")
    let png = try #require(registry.declaration(for: UTType.png))
    #expect(png.kind == .system)
    #expect(png.sourceName == nil)
    #expect(png.mimeTypes == ["image/png", "image/x-png"])
    #expect(png.parents == [.image])
    #expect(png.desktopDatabaseLocation == SourceLocation(file: "test.xml", line: 3))
    #expect(registry.identifier(forMIMEType: "image/x-png") == .png)
    // Folio's table maps the desktop's name for C to Apple's type.
    #expect(registry.identifier(forMIMEType: "text/x-csrc") == "public.c-source")
    #expect(registry.declaration(for: "public.c-source")?.typeDescription?.value != nil)
    // The desktop's sub-class-of does not change an Apple type's parents.
    let docx: TypeIdentifier = "org.openxmlformats.wordprocessingml.document"
    #expect(!registry.conforms(docx, to: .zipArchive))
    #expect(registry.identifiers(forMIMEType: "application/zip").first == .zipArchive)
  }

  @Test func aDesktopOnlyTypeGetsFolioIdentifierParentsAndDescription() throws {
    let alpha = TypeIdentifier.desktop(mimeType: "application/x-alpha")
    #expect(alpha == "org.freedesktop.mime.application.x-alpha")
    let declaration = try #require(registry.declaration(for: alpha))
    #expect(declaration.kind == .system)
    #expect(declaration.sourceName == "test.xml")
    #expect(declaration.typeDescription?.value == "Alpha-Daten")
    #expect(declaration.localizedDescriptions == ["de": "Alpha-Daten"])
    #expect(declaration.acronym == "AD")
    #expect(declaration.expandedAcronym == "Alpha Data")
    #expect(declaration.genericIconName == "x-office-document")
    #expect(declaration.filenameExtensions == ["dat", "tar.dat"])
    #expect(declaration.parents == [.data])
    #expect(registry.conforms(TypeIdentifier.desktop(mimeType: "image/x-own"), to: .image))
    #expect(registry.conforms(TypeIdentifier.desktop(mimeType: "text/x-own"), to: .plainText))
    #expect(
      registry.conforms(
        TypeIdentifier.desktop(mimeType: "text/vnd.trolltech.linguist"), to: .xml))
    #expect(
      TypeIdentifier.desktop(mimeType: "application/ld+json")
        == "org.freedesktop.mime.application.ld-plus-json")
    #expect(TypeIdentifier.desktop(mimeType: "application/ld+json").isWellFormed)
    #expect(TypeIdentifier.desktop(mimeType: "a/B_c").rawValue == "org.freedesktop.mime.a.b-c")
    // Declared extensions still come first: a desktop type never outranks a declaration.
    #expect(registry.identifiers(forFilenameExtension: "c").first == "public.c-source")
  }

  // MARK: Names

  @Test func globsRankByWeightThenLengthThenCase() {
    #expect(identify("a.dat").identifier == TypeIdentifier.desktop(mimeType: "application/x-alpha"))
    #expect(identify("a.dat").candidates.map(\.strength) == [60, 50])
    #expect(identify("a.bet").identifier == TypeIdentifier.desktop(mimeType: "application/x-beta"))
    #expect(identify("backup.tar.gz").identifier == .gzipTarArchive)
    #expect(identify("file.gz").identifier == .gzip)
    #expect(identify("main.C").identifier == "public.c-plus-plus-source")
    #expect(identify("main.c").identifier == "public.c-source")
    #expect(identify("MAIN.CPP").identifier == "public.c-plus-plus-source")
    #expect(identify("IMAGE.PNG").identifier == .png)
    #expect(identify("IMAGE.PNG").evidence == .name)
  }

  @Test func literalNamesComeBeforeAnyPattern() {
    #expect(identify("Makefile").identifier == "public.make-source")
    #expect(identify("makefile").identifier == "public.make-source")
    #expect(
      identify("Makefile.in").identifier == TypeIdentifier.desktop(mimeType: "text/x-maketemplate"))
    #expect(identify("x.mk").identifier == "public.make-source")
  }

  @Test func hiddenNamesAndPackageExtensionsOnFilesSayNothing() {
    #expect(identify(".png").identifier == .data)
    #expect(identify("Old.rtfd").identifier == .dynamic(tagClass: .filenameExtension, tag: "rtfd"))
    #expect(registry.identifier(forFileNamed: "Old.rtfd", kind: .directory) == "com.apple.rtfd")
    #expect(registry.isInconclusive("a.ts"))
    #expect(!registry.isInconclusive("a.png"))
    #expect(registry.isInconclusive("noextension"))
  }

  // MARK: Content

  @Test func contentBreaksATieBetweenGlobs() {
    let linguist = identify("strings.ts", text: "<?xml version=\"1.0\"?>\n<TS version=\"2.1\">")
    #expect(linguist.identifier == TypeIdentifier.desktop(mimeType: "text/vnd.trolltech.linguist"))
    #expect(linguist.evidence == .both)
    var stream = [UInt8](repeating: 0, count: 400)
    stream[0] = 0x47
    stream[188] = 0x47
    let video = identify("clip.ts", stream)
    #expect(video.identifier == "public.mpeg-2-transport-stream")
    #expect(video.evidence == .both)
    // With nothing to go on, the first glob stands.
    #expect(identify("clip.ts").identifier == "public.mpeg-2-transport-stream")
    #expect(identify("clip.ts").evidence == .name)
  }

  @Test func aGlobThatIsASubclassOfTheMagicWins() {
    let zip = [0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0, count: 60)
    let docx = identify("report.docx", zip)
    #expect(docx.identifier == "org.openxmlformats.wordprocessingml.document")
    #expect(docx.evidence == .both)
    #expect(docx.candidates.map(\.evidence) == [.name, .content])
    #expect(identify("archive", zip).identifier == .zipArchive)
    #expect(identify("archive", zip).evidence == .content)
  }

  @Test func magicWinsWhenItsPriorityReachesTheGlobsWeight() {
    // Priority 80 ≥ weight 50: the content wins.
    let strong = identify("notes.txt", text: "STRONG! and more")
    #expect(strong.identifier == TypeIdentifier.desktop(mimeType: "application/x-strong"))
    #expect(strong.evidence == .content)
    // Priority 40 < weight 50: the name stands.
    let weak = identify("notes.txt", text: "  WEAK! and more")
    #expect(weak.identifier == .plainText)
    #expect(weak.evidence == .name)
    #expect(weak.candidates.contains { $0.evidence == .content && $0.strength == 40 })
    // The PNG signature (50) against `*.txt` (50): a tie goes to the content.
    let png = identify("picture.txt", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    #expect(png.identifier == .png)
  }

  @Test func rootXMLRefinesAnXMLDocument() {
    let svg = "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>"
    #expect(identify("drawing", text: svg).identifier == .svg)
    #expect(identify("drawing.xml", text: svg).identifier == .svg)
    #expect(identify("drawing.svg", text: svg).evidence == .both)
    #expect(identify("other", text: "<?xml version=\"1.0\"?><other/>").identifier == .xml)
    let plist = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist>\n<plist version=\"1.0\"><dict/></plist>"
    #expect(identify("Info", text: plist).identifier == .xmlPropertyList)
  }

  @Test func withoutARuleTextAndBinaryDecideOnlyWhenTheNameSaysNothing() {
    #expect(identify("notes", text: "Notes, café\n").identifier == .utf8PlainText)
    #expect(identify("latin", [0x63, 0x61, 0x66, 0xE9, 0x0A]).identifier == .plainText)
    #expect(identify("data", text: " {\"a\": [1]}").identifier == .json)
    #expect(identify("blob", [0x00, 0x01, 0x02, 0xFF]).identifier == .data)
    #expect(
      identify("blob.xyz", [0x00, 0x01]).identifier
        == .dynamic(tagClass: .filenameExtension, tag: "xyz"))
    #expect(identify("notes.xyz", text: "hello").identifier == .utf8PlainText)
    #expect(identify("program.c", text: "int main;").identifier == "public.c-source")
    #expect(identify("empty", []).identifier == .utf8PlainText)
    #expect(identify("empty.txt", []).identifier == .plainText)
    #expect(identify("bplist", Array("bplist00".utf8) + [0xD0]).identifier == .binaryPropertyList)
  }

  @Test func itemsThatAreNotFilesAreTypedByKind() {
    #expect(
      registry.identification(forFileNamed: "x.png", kind: .symbolicLink, content: nil).evidence
        == .kind)
    #expect(
      registry.identification(forFileNamed: "dir", kind: .directory, content: nil).identifier
        == .folder)
  }

  @Test func theContentReadIsBoundedByTheRules() {
    #expect(registry.contentReadLength >= 4_096)
    #expect(registry.contentReadLength <= MIMEDatabaseLimits.default.maximumContentExtent)
    #expect(TypeRegistry.system.contentReadLength == 4_096)
  }

  @Test func identificationReadsFilesFromDiskOnlyWhenAsked() async throws {
    try await withTemporaryDirectory("identify-content") { folder in
      let file = folder.appendingPathComponent("picture.txt")
      try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: file)
      #expect(
        try registry.identification(ofItemAtPath: file.path, content: .never).identifier
          == .plainText)
      #expect(
        try registry.identification(ofItemAtPath: file.path, content: .whenNameIsInconclusive)
          .identifier == .plainText)
      #expect(
        try registry.identification(ofItemAtPath: file.path, content: .always).identifier == .png)
      let unnamed = folder.appendingPathComponent("picture")
      try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: unnamed)
      #expect(
        try registry.identification(ofItemAtPath: unnamed.path, content: .whenNameIsInconclusive)
          .identifier == .png)
      #expect(throws: UniformTypeError.self) {
        try registry.identification(
          ofItemAtPath: folder.appendingPathComponent("missing").path, content: .always)
      }
      chmod(unnamed.path, 0)
      defer { chmod(unnamed.path, 0o644) }
      if getuid() != 0 {
        #expect(throws: UniformTypeError.self) {
          try registry.identification(ofItemAtPath: unnamed.path, content: .always)
        }
      }
    }
  }
}
