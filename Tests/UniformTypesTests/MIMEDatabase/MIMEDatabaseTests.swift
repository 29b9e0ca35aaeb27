import FolioSystem
import FolioTestSupport
import Foundation
import Testing
import UniformTypes

/// A source file describing one type with every element the reader knows.
let exampleMIMEInfo = mimeInfo(
  """
    <mime-type type="text/x-example">
      <comment>Example text</comment>
      <comment xml:lang="de">Beispieltext</comment>
      <comment xml:lang="pt_BR">Texto de exemplo</comment>
      <acronym>EXT</acronym>
      <expanded-acronym>Example Text</expanded-acronym>
      <generic-icon name="text-x-generic"/>
      <sub-class-of type="text/plain"/>
      <alias type="application/x-example"/>
      <glob pattern="*.ext"/>
      <glob pattern="*.EXT2" weight="80" case-sensitive="true"/>
      <magic priority="60">
        <match type="string" value="EXAMPLE\\x01" offset="0:4">
          <match type="big16" value="0x0102" offset="10"/>
          <match type="byte" value="7" offset="12" mask="0x0f"/>
        </match>
      </magic>
      <root-XML namespaceURI="urn:example" localName="doc"/>
      <other:thing xmlns:other="urn:other"><other:inner/></other:thing>
    </mime-type>
  """)

@Suite struct MIMEDatabaseTests {
  private let sample = exampleMIMEInfo

  @Test func readsEveryElementOfAType() throws {
    let database = MIMEDatabase.parse(sample, file: "example.xml")
    #expect(database.diagnostics.isEmpty, "\(database.diagnostics)")
    let type = try #require(database.types.first)
    #expect(database.types.count == 1)
    #expect(type.name == "text/x-example")
    #expect(type.location == SourceLocation(file: "example.xml", line: 3))
    #expect(type.comment == "Example text")
    #expect(type.localizedComments == ["de": "Beispieltext", "pt_br": "Texto de exemplo"])
    #expect(type.comment(preferring: ["pt-BR", "pt"]) == "Texto de exemplo")
    #expect(type.comment(preferring: ["fr"]) == "Example text")
    #expect(type.acronym == "EXT")
    #expect(type.expandedAcronym == "Example Text")
    #expect(type.genericIcon == "text-x-generic")
    #expect(type.parents.map(\.value) == ["text/plain"])
    #expect(type.aliases.map(\.value) == ["application/x-example"])
    #expect(type.globs.map(\.pattern) == ["*.ext", "*.EXT2"])
    #expect(type.globs.map(\.weight) == [50, 80])
    #expect(type.globs.map(\.isCaseSensitive) == [false, true])
    #expect(type.globs[0].location?.line == 12)
    #expect(type.rootXML == [RootXMLRule(namespaceURI: "urn:example", localName: "doc")])
    let magic = try #require(type.magic.first)
    #expect(magic.priority == 60)
    let match = try #require(magic.matches.first)
    #expect(match.kind == .string)
    #expect(match.value == Array("EXAMPLE".utf8) + [1])
    #expect(match.offset == 0 && match.rangeLength == 4)
    #expect(match.children.map(\.kind) == [.big16, .byte])
    #expect(match.children[0].value == [0x01, 0x02])
    #expect(match.children[1].mask == [0x0F])
    #expect(database.definition(for: "APPLICATION/X-EXAMPLE")?.name == "text/x-example")
  }

  @Test func keepsOnlyTheLanguagesAskedFor() throws {
    let database = MIMEDatabase.parse(sample, file: "example.xml", languages: ["de_DE", "de"])
    #expect(database.types.first?.localizedComments == ["de": "Beispieltext"])
    let none = MIMEDatabase.parse(sample, file: "example.xml", languages: [])
    #expect(none.types.first?.localizedComments == [:])
    #expect(none.types.first?.comment == "Example text")
    // Tags compare folded (case, `-` as `_`), as the user's locale may spell them otherwise.
    let brazilian = MIMEDatabase.parse(sample, file: "example.xml", languages: ["PT-br"])
    #expect(brazilian.types.first?.localizedComments == ["pt_br": "Texto de exemplo"])
  }

  @Test func magicValuesOfEveryTypeBecomeBytes() throws {
    let database = MIMEDatabase.parse(
      mimeInfo(
        """
          <mime-type type="application/x-numbers">
            <magic>
              <match type="byte" value="0x7f" offset="0"/>
              <match type="big16" value="0xcafe" offset="0"/>
              <match type="little16" value="0xcafe" offset="0"/>
              <match type="big32" value="0x12345678" offset="0" mask="0xffff0000"/>
              <match type="little32" value="305419896" offset="0"/>
              <match type="host16" value="0x0102" offset="0"/>
              <match type="host32" value="01" offset="0"/>
              <match type="string" value="a\\tb\\n\\101\\x4" offset="0" mask="0xff00ff00ff0f"/>
            </magic>
          </mime-type>
        """), file: "n.xml")
    #expect(database.diagnostics.isEmpty, "\(database.diagnostics)")
    let matches = try #require(database.types.first?.magic.first?.matches)
    let little = 1.littleEndian == 1
    #expect(
      matches.map(\.value) == [
        [0x7F], [0xCA, 0xFE], [0xFE, 0xCA], [0x12, 0x34, 0x56, 0x78], [0x78, 0x56, 0x34, 0x12],
        little ? [0x02, 0x01] : [0x01, 0x02], little ? [1, 0, 0, 0] : [0, 0, 0, 1],
        [0x61, 0x09, 0x62, 0x0A, 0x41, 0x04],
      ])
    #expect(matches[3].mask == [0xFF, 0xFF, 0x00, 0x00])
    #expect(matches[7].mask == [0xFF, 0x00, 0xFF, 0x00, 0xFF, 0x0F])
  }

  @Test func matchesHonourOffsetsRangesMasksAndNesting() throws {
    let database = MIMEDatabase.parse(sample, file: "example.xml")
    let rule = try #require(database.types.first?.magic.first)
    func matches(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { rule.matches($0) } }
    var file = Array("EXAMPLE".utf8) + [1, 0, 0, 0x01, 0x02, 0, 0]
    #expect(matches(file))  // at offset 0, and the big16 child at 10
    file = [0, 0] + Array("EXAMPLE".utf8) + [1, 0x01, 0x02, 0, 0]
    #expect(matches(file))  // at offset 2 of 0:4; the byte child's low nibble at 12 is not 7…
    file[12] = 0xF7
    #expect(matches(file))  // …but either child will do
    file = [0, 0, 0, 0, 0] + Array("EXAMPLE".utf8) + [1, 0, 0, 0, 0, 0, 0]
    #expect(!matches(file))  // offset 5 is outside 0:4
    file = Array("EXAMPLE".utf8) + [1]
    #expect(!matches(file))  // no child can match past the end
    #expect(rule.extent == 13)
  }

  @Test func laterFilesTakePrecedenceAndDeleteAllDropsEarlierRules() async throws {
    try await withTemporaryDirectory("mime-precedence") { folder in
      let system = folder.appendingPathComponent("system/mime/packages")
      let user = folder.appendingPathComponent("user/mime/packages")
      for directory in [system, user] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      }
      try mimeInfo(
        """
          <mime-type type="text/x-a">
            <comment>System comment</comment>
            <glob pattern="*.a"/><glob pattern="*.aa"/>
            <magic><match type="string" value="AAA" offset="0"/></magic>
          </mime-type>
          <mime-type type="text/x-b"><glob pattern="*.b"/></mime-type>
        """
      ).write(to: system.appendingPathComponent("base.xml"))
      try mimeInfo(
        """
          <mime-type type="text/x-b"><comment>Overridden</comment></mime-type>
        """
      ).write(to: system.appendingPathComponent("Override.xml"))
      try mimeInfo(
        """
          <mime-type type="text/x-b"><comment>Not last</comment></mime-type>
        """
      ).write(to: system.appendingPathComponent("zzz.xml"))
      try mimeInfo(
        """
          <mime-type type="text/x-a">
            <comment>User comment</comment>
            <glob-deleteall/>
            <glob pattern="*.user"/>
            <magic-deleteall/>
          </mime-type>
        """
      ).write(to: user.appendingPathComponent("mine.xml"))
      try Data("not xml".utf8).write(to: user.appendingPathComponent("notes.txt"))
      let database = MIMEDatabase.load(mimeDirectories: [
        folder.appendingPathComponent("system/mime"), folder.appendingPathComponent("missing"),
        folder.appendingPathComponent("user/mime"),
      ])
      #expect(database.diagnostics.isEmpty, "\(database.diagnostics)")
      #expect(
        database.sourceFiles.map { URL(fileURLWithPath: $0).lastPathComponent } == [
          "base.xml", "zzz.xml", "Override.xml", "mine.xml",
        ])
      let a = try #require(database.definition(for: "text/x-a"))
      #expect(a.comment == "User comment")
      #expect(a.globs.map(\.pattern) == ["*.user"])
      #expect(a.magic.isEmpty)
      #expect(database.definition(for: "text/x-b")?.comment == "Overridden")
      #expect(database.definition(for: "text/x-b")?.globs.map(\.pattern) == ["*.b"])
    }
  }

  // MARK: Bad and hostile databases

  @Test func malformedXMLIsReportedWithItsLineAndTheFileLeftOut() {
    let database = MIMEDatabase.parse(
      mimeInfo("<mime-type type=\"text/x-a\"><glob pattern=\"*.a\"></mime-type>"), file: "bad.xml")
    #expect(database.types.isEmpty)
    let diagnostic = database.diagnostics.first
    #expect(diagnostic?.code == "mime-malformed-xml")
    #expect(diagnostic?.severity == .error)
    #expect(diagnostic?.location?.file == "bad.xml")
    #expect(diagnostic?.location?.line == 3)
  }

  @Test func entitiesAreNeverExpanded() {
    // Billion laughs: refused at the first declaration, in no time and no memory.
    var declarations = "<!ENTITY lol \"lol\">"
    for level in 1...9 {
      let previous = level == 1 ? "lol" : "lol\(level - 1)"
      declarations +=
        "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
    }
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE mime-info [\(declarations)]>
      <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
        <mime-type type="text/x-a"><comment>&lol9;</comment></mime-type>
      </mime-info>
      """
    let database = MIMEDatabase.parse(Data(text.utf8), file: "laughs.xml")
    #expect(database.types.isEmpty)
    #expect(database.diagnostics.map(\.code) == ["mime-entity"])
    #expect(database.diagnostics.first?.location?.line == 2)
    // An undeclared entity is refused too.
    let undeclared = MIMEDatabase.parse(
      mimeInfo("<mime-type type=\"text/x-a\"><comment>&nope;</comment></mime-type>"),
      file: "u.xml")
    #expect(undeclared.types.isEmpty)
    #expect(undeclared.diagnostics.first?.code == "mime-entity")
    // The predefined entities and character references are text, not entities.
    let plain = MIMEDatabase.parse(
      mimeInfo(
        "<mime-type type=\"text/x-a\"><comment>a &lt;b&gt; &amp; &#x63;</comment></mime-type>"),
      file: "p.xml")
    #expect(plain.types.first?.comment == "a <b> & c")
  }

  @Test func aDocumentOfAnotherKindIsLeftOut() {
    let database = MIMEDatabase.parse(
      Data("<?xml version=\"1.0\"?><plist><dict/></plist>".utf8), file: "Info.plist")
    #expect(database.types.isEmpty)
    #expect(database.diagnostics.map(\.code) == ["mime-not-mime-info"])
    let wrongNamespace = MIMEDatabase.parse(
      Data("<mime-info><mime-type type=\"text/x-a\"/></mime-info>".utf8), file: "n.xml")
    #expect(wrongNamespace.types.isEmpty)
    #expect(wrongNamespace.diagnostics.map(\.code) == ["mime-not-mime-info"])
  }

  @Test func badElementsAreSkippedWithTheirLineAndTheRestIsKept() {
    let database = MIMEDatabase.parse(
      mimeInfo(
        """
          <mime-type type="nonsense"><glob pattern="*.x"/></mime-type>
          <mime-type type="text/x-good">
            <glob/>
            <glob pattern="*.w" weight="500"/>
            <glob pattern="a/b"/>
            <magic priority="high"><match type="string" value="x" offset="0"/></magic>
            <magic>
              <match type="float" value="1" offset="0"/>
              <match type="byte" value="300" offset="0"/>
              <match type="string" value="x" offset="9:2"/>
              <match type="string" value="x" offset="0" mask="0xffff"/>
              <match type="string" value="ok" offset="0"/>
            </magic>
            <root-XML namespaceURI="" localName=""/>
            <sub-class-of/>
            <glob pattern="*.good"/>
          </mime-type>
        """), file: "bad.xml")
    #expect(database.types.map(\.name) == ["text/x-good"])
    let good = database.types[0]
    #expect(good.globs.map(\.pattern) == ["*.good"])
    #expect(good.magic.count == 1)
    #expect(good.magic.first?.matches.map(\.value) == [Array("ok".utf8)])
    #expect(good.rootXML.isEmpty)
    let found = database.diagnostics.map { "\($0.location?.line ?? 0) \($0.code)" }
    #expect(
      found == [
        "3 mime-invalid-type", "5 mime-invalid-glob", "6 mime-invalid-glob",
        "7 mime-invalid-glob", "8 mime-invalid-magic", "10 mime-invalid-magic",
        "11 mime-invalid-magic", "12 mime-invalid-magic", "13 mime-invalid-magic",
        "16 mime-invalid-root-xml", "17 mime-invalid-type",
      ])
    #expect(database.diagnostics.allSatisfy { $0.severity == .warning })
  }

  @Test func subclassCyclesAreBrokenAndReportedAtTheirLine() {
    let database = MIMEDatabase.parse(
      mimeInfo(
        """
          <mime-type type="text/x-a"><sub-class-of type="text/x-b"/></mime-type>
          <mime-type type="text/x-b"><sub-class-of type="text/x-c"/></mime-type>
          <mime-type type="text/x-c"><sub-class-of type="text/x-alias-of-a"/></mime-type>
          <mime-type type="text/x-d"><alias type="text/x-alias-of-a"/></mime-type>
          <mime-type type="text/x-self"><sub-class-of type="text/x-self"/></mime-type>
        """), file: "cycle.xml")
    let cycles = database.diagnostics.filter { $0.code == "mime-subclass-cycle" }
    #expect(cycles.count == 1, "\(database.diagnostics)")
    #expect(cycles.first?.location?.line == 7)
    // text/x-alias-of-a names text/x-d, so there is no cycle through text/x-a: only x-self's.
    #expect(database.definition(for: "text/x-c")?.parents.map(\.value) == ["text/x-d"])
    let real = MIMEDatabase.parse(
      mimeInfo(
        """
          <mime-type type="text/x-a"><sub-class-of type="text/x-b"/></mime-type>
          <mime-type type="text/x-b"><sub-class-of type="text/x-c"/></mime-type>
          <mime-type type="text/x-c"><sub-class-of type="text/x-a"/></mime-type>
        """), file: "cycle.xml")
    #expect(real.diagnostics.map(\.code) == ["mime-subclass-cycle"])
    #expect(real.diagnostics.first?.location?.line == 5)
    let edges = real.types.reduce(0) { $0 + $1.parents.count }
    #expect(edges == 2)
    let registry = {
      var builder = TypeRegistryBuilder()
      builder.add(real)
      return builder.build()
    }()
    for name in ["text/x-a", "text/x-b", "text/x-c"] {
      #expect(!registry.isOnCycle(TypeIdentifier.desktop(mimeType: name)))
    }
  }

  @Test func aHundredThousandGlobsLoadAndMatchWithinTheLimits() throws {
    var body = "<mime-type type=\"application/x-many\">"
    for index in 0..<100_000 { body += "<glob pattern=\"*.e\(index)\"/>" }
    for index in 0..<1_500 { body += "<glob pattern=\"*a*a*a*a*a*a*a*a*\(index)[0-9]?\"/>" }
    body += "</mime-type>"
    let database = MIMEDatabase.parse(mimeInfo(body), file: "many.xml")
    let globs = try #require(database.types.first?.globs)
    #expect(globs.count == 101_000)  // every simple glob; wildcards stop at their limit
    #expect(database.diagnostics.map(\.code) == ["mime-limit-reached"])
    var builder = TypeRegistryBuilder()
    builder.add(database)
    let registry = builder.build()
    let many = TypeIdentifier.desktop(mimeType: "application/x-many")
    #expect(registry.identifier(forFileNamed: "x.e99999", kind: .regularFile) == many)
    #expect(registry.identifier(forFileNamed: "x.E12", kind: .regularFile) == many)
    // A name no simple glob matches goes through the thousand wildcard patterns; with
    // backtracking limited to the last star, that is quick even for a name built to hurt.
    let hostile = String(repeating: "a", count: 250) + "b"
    #expect(registry.identifier(forFileNamed: hostile, kind: .regularFile) == .data)
    #expect(registry.identifier(forFileNamed: "aaaaaaaa12x", kind: .regularFile) == many)
  }

  @Test func filesOverTheSizeLimitAreLeftOut() async throws {
    try await withTemporaryDirectory("mime-size") { folder in
      let packages = folder.appendingPathComponent("mime/packages")
      try FileManager.default.createDirectory(at: packages, withIntermediateDirectories: true)
      try mimeInfo(
        "<mime-type type=\"text/x-a\"><comment>\(String(repeating: "x", count: 5000))</comment></mime-type>"
      )
      .write(to: packages.appendingPathComponent("big.xml"))
      let database = MIMEDatabase.load(
        mimeDirectories: [folder.appendingPathComponent("mime")],
        limits: MIMEDatabaseLimits(maximumFileSize: 1000))
      #expect(database.types.isEmpty)
      #expect(database.diagnostics.map(\.code) == ["mime-unreadable-file"])
      let bounded = MIMEDatabase.load(
        mimeDirectories: [folder.appendingPathComponent("mime")],
        limits: MIMEDatabaseLimits(maximumTextLength: 100))
      #expect(bounded.types.first?.comment?.utf8.count == 100)
    }
  }

  @Test func deepMatchNestingStopsAtTheLimit() throws {
    var body = "<mime-type type=\"application/x-deep\"><magic>"
    for _ in 0..<40 { body += "<match type=\"byte\" value=\"1\" offset=\"0\">" }
    for _ in 0..<40 { body += "</match>" }
    body += "</magic></mime-type>"
    let database = MIMEDatabase.parse(mimeInfo(body), file: "deep.xml")
    #expect(database.diagnostics.map(\.code) == ["mime-limit-reached"])
    var depth = 0
    var match = database.types.first?.magic.first?.matches.first
    while let current = match {
      depth += 1
      match = current.children.first
    }
    #expect(depth == MIMEDatabaseLimits.default.maximumMatchDepth)
  }

  @Test(
    .enabled(
      if: SharedMIMEInfo.isInstalled, "shared-mime-info is not installed (bootstrap.sh installs it)"
    ))
  func theSystemDatabaseLoadsWithoutAProblem() throws {
    let system = SharedMIMEInfo.root
    let database = MIMEDatabase.load(mimeDirectories: [system])
    #expect(database.diagnostics.isEmpty, "\(database.diagnostics.prefix(5))")
    #expect(database.types.count > 700)
    #expect(database.definition(for: "image/png")?.globs.first?.pattern == "*.png")
  }
}
