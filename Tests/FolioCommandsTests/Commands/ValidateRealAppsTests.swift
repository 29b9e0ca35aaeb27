import FolioCommands
import FolioTestSupport
import Foundation
import Testing

/// The classes of false findings and missed defects seen on real apps' Info.plists (issue 34),
/// each checked on a small property list written for it.
@Suite struct ValidateRealAppsTests {
  // MARK: Plug-in document types (issue 34 §1)

  /// A document type of a plug-in, without a name or a rank, as Apple's templates write them.
  private func pluginDocumentType(role: String?) -> String {
    var text = "    <dict>\n"
    if let role { text += "      <key>CFBundleTypeRole</key>\n      <string>\(role)</string>\n" }
    text += "      <key>LSItemContentTypes</key>\n      <array>\n"
    text += "        <string>public.plain-text</string>\n      </array>\n    </dict>\n"
    return text
  }

  private func withPackageType(_ plist: String, _ packageType: String) -> String {
    plist.replacingOccurrences(
      of: "<dict>\n  <key>CFBundleIdentifier</key>",
      with: "<dict>\n  <key>CFBundlePackageType</key>\n  <string>\(packageType)</string>\n"
        + "  <key>CFBundleIdentifier</key>")
  }

  @Test(arguments: ["MDImporter", "QLGenerator"])
  func pluginRolesNeedNoRank(_ role: String) async throws {
    let fixture = Fixture(text: infoPlist(documentTypes: pluginDocumentType(role: role)))
    let run = try await runValidate([fixture], arguments: ["--strict"])
    #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map { "\($0.code) \($0.message)" })")
    #expect(run.status == 0)
  }

  @Test func aPluginBundleTellsItselfByItsPackageType() async throws {
    let fixture = Fixture(
      text: withPackageType(infoPlist(documentTypes: pluginDocumentType(role: "Viewer")), "BNDL"))
    let run = try await runValidate([fixture], arguments: ["--strict"])
    #expect(run.with(code: "missing-handler-rank").isEmpty)
    #expect(run.status == 0)
  }

  @Test func aPluginBundleTellsItselfByItsExtension() async throws {
    let fixture = Fixture(
      name: "Markdown.qlgenerator/Contents/Info.plist",
      text: infoPlist(documentTypes: pluginDocumentType(role: nil)))
    let run = try await runValidate([fixture], arguments: ["--strict"])
    #expect(run.with(code: "missing-handler-rank").isEmpty)
    #expect(run.status == 0)
  }

  @Test func anAppsDocumentTypeStillNeedsARank() async throws {
    let fixture = Fixture(
      text: withPackageType(
        infoPlist(documentTypes: documentTypeDict(rank: nil, contentTypes: ["public.plain-text"])),
        "APPL"))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "missing-handler-rank", severity: "warning",
      at: fixture.position(of: "<dict>", after: "CFBundleDocumentTypes"), status: 0)
  }

  @Test func aMisspeltPluginRoleIsStillAnError() async throws {
    let fixture = Fixture(text: infoPlist(documentTypes: pluginDocumentType(role: "MdImporter")))
    let run = try await runValidate([fixture])
    let role = run.with(code: "invalid-role")
    #expect(role.count == 1)
    #expect(role.first?.hint == "write MDImporter")
    #expect(run.status == 1)
  }

  // MARK: Aliases of other vendors' identifiers (issue 34 §2)

  @Test func anAliasBesideTheAppsOwnTypeIsANoteNotATypo() async throws {
    // clj and cljs files: the app's own type, and another editor's identifier for them.
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict("com.acme.clojure.clj", extensions: ["clj"]),
        documentTypes: documentTypeDict(
          contentTypes: ["com.acme.clojure.clj", "com.acme.clojure.cljs"])))
    let run = try await runValidate([fixture])
    #expect(run.with(code: "undeclared-content-type").isEmpty)
    let alias = run.with(code: "foreign-content-type")
    #expect(alias.map(\.severity) == ["note"])
    #expect(alias.first?.line == fixture.position(of: "<string>com.acme.clojure.cljs").line)
    #expect(alias.first?.hint == nil)
    #expect(run.status == 0)
  }

  @Test func aTypoOfTheAppsOwnTypeNotListedBesideItIsStillAnError() async throws {
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict("com.acme.clojure.clj", extensions: ["clj"]),
        documentTypes: documentTypeDict(
          contentTypes: ["com.acme.clojure.cljj", "public.plain-text"])))
    let run = try await runValidate([fixture])
    #expect(run.with(code: "undeclared-content-type").first?.severity == "error")
    #expect(run.status == 1)
  }

  @Test func aParentAnotherVendorDeclaresIsAWarningSayingWhereItHolds() async throws {
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict(
          "com.acme.clojure.edn", conformsTo: ["public.data", "org.clojure"],
          extensions: ["edn"])))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "unknown-supertype", severity: "warning",
      at: fixture.position(of: "<string>org.clojure"), status: 0)
    #expect(
      run.with(code: "unknown-supertype").first?.message.contains(
        "holds only where the app that declares it is installed") == true)
  }

  @Test func aParentInTheBundlesOwnDomainIsStillAnError() async throws {
    // infoPlist's CFBundleIdentifier is com.example.app: com.example.base is the app's own.
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict(
          "org.acme.doc", conformsTo: ["public.data", "com.example.base"], extensions: ["adoc"])))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "unknown-supertype", severity: "error",
      at: fixture.position(of: "<string>com.example.base"), status: 1)
  }

  // MARK: Cascades (issue 34 §3)

  @Test func anExportedPublicItemIsReportedOnceNotAsAMissingBaseType() async throws {
    let fixture = Fixture(
      text: infoPlist(exported: typeDict("public.item", conformsTo: [], extensions: ["itm"])))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "reserved-identifier", severity: "error",
      at: fixture.position(of: "<string>public.item"), status: 1)
    #expect(run.with(code: "missing-base-type").isEmpty)
  }

  @Test func anExportedSystemTypeIsNotAlsoAnEmptyDeclaration() async throws {
    let fixture = Fixture(
      text: infoPlist(exported: typeDict("net.daringfireball.markdown", conformsTo: [])))
    let run = try await runValidate([fixture])
    #expect(run.with(code: "exported-system-type").count == 1)
    #expect(run.with(code: "empty-declaration").isEmpty)
    #expect(run.with(code: "missing-base-type").isEmpty)
  }

  @Test func anOrdinaryExportWithoutABaseTypeIsStillReported() async throws {
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict("com.acme.thing", conformsTo: ["public.content"], extensions: ["thg"])))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "missing-base-type", severity: "error",
      at: fixture.position(of: "<string>com.acme.thing"), status: 1)
  }

  // MARK: Xcode's $(PRODUCT_BUNDLE_IDENTIFIER).ext (issue 34 §5)

  private func xcodeTemplate(_ identifier: String, conformsTo: [String] = ["public.data"])
    -> String
  {
    infoPlist(
      exported: typeDict(identifier, conformsTo: conformsTo, extensions: ["acme"]),
      documentTypes: documentTypeDict(contentTypes: [identifier]))
  }

  @Test func theBundleIdentifierIdiomDoesNotWarn() async throws {
    let fixture = Fixture(text: xcodeTemplate("$(PRODUCT_BUNDLE_IDENTIFIER).document"))
    let run = try await runValidate([fixture], arguments: ["--strict"])
    #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map { "\($0.code) \($0.message)" })")
    #expect(run.status == 0)
  }

  @Test func theRestOfTheIdentifierIsStillChecked() async throws {
    let badSpelling = Fixture(text: xcodeTemplate("$(PRODUCT_BUNDLE_IDENTIFIER).my document"))
    let spelling = try await runValidate([badSpelling])
    #expect(spelling.with(code: "invalid-identifier").count == 2)
    #expect(spelling.with(code: "unresolved-variable").isEmpty)

    let noBase = Fixture(
      text: xcodeTemplate("${PRODUCT_BUNDLE_IDENTIFIER}.doc", conformsTo: ["public.content"]))
    let base = try await runValidate([noBase])
    expectSingle(
      base, code: "missing-base-type", severity: "error",
      at: noBase.position(of: "<string>${PRODUCT_BUNDLE_IDENTIFIER}.doc"), status: 1)
  }

  @Test func defineStillFillsTheBundleIdentifierIn() async throws {
    let fixture = Fixture(
      text: xcodeTemplate("$(PRODUCT_BUNDLE_IDENTIFIER).doc", conformsTo: ["public.content"]))
    let run = try await runValidate(
      [fixture], arguments: ["-D", "PRODUCT_BUNDLE_IDENTIFIER=com.acme.editor"])
    let base = run.with(code: "missing-base-type")
    #expect(base.count == 1)
    #expect(base.first?.message.contains("com.acme.editor.doc") == true)
  }

  @Test func otherVariablesInIdentifiersStillWarn() async throws {
    let fixture = Fixture(text: xcodeTemplate("$(TYPE_PREFIX).doc"))
    let run = try await runValidate([fixture])
    #expect(run.with(code: "unresolved-variable").count == 2)
  }

  // MARK: Typos in keys (issue 34 §9)

  @Test func aKeyWrongOnlyInCaseIsToldItsSpelling() async throws {
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict(
          "com.acme.thing", extensions: ["thg"],
          extra: "      <key>UTTYpeReferenceURL</key>\n      <string>https://acme.com</string>\n")))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "unknown-key", severity: "warning",
      at: fixture.position(of: "<key>UTTYpeReferenceURL"), status: 0)
    #expect(run.with(code: "unknown-key").first?.hint == "write UTTypeReferenceURL")
  }

  @Test func aDocumentTypeKeyInTheWrongCaseIsReported() async throws {
    let fixture = Fixture(
      text: infoPlist(
        documentTypes: documentTypeDict(
          contentTypes: ["public.plain-text"],
          extra: "      <key>lsHandlerRank</key>\n      <string>Owner</string>\n")))
    let run = try await runValidate([fixture])
    #expect(run.with(code: "unknown-key").first?.hint == "write LSHandlerRank")
  }

  // MARK: Deployment targets (issue 34 §4)

  /// An app that imports Markdown's system type, with a deployment target or none.
  private func markdownImporter(
    minimumSystemVersion: String?, key: String = "LSMinimumSystemVersion"
  )
    -> String
  {
    var plist = infoPlist(
      imported: typeDict(
        "net.daringfireball.markdown", conformsTo: ["public.plain-text"],
        extensions: ["md", "markdown"]),
      documentTypes: documentTypeDict(
        name: "Markdown", rank: "Default", contentTypes: ["net.daringfireball.markdown"]))
    if let minimumSystemVersion {
      plist = plist.replacingOccurrences(
        of: "  <key>CFBundleIdentifier</key>",
        with: "  <key>\(key)</key>\n  <string>\(minimumSystemVersion)</string>\n"
          + "  <key>CFBundleIdentifier</key>")
    }
    return plist
  }

  @Test func anImportOfATypeTheSystemDeclaresOnlyLaterIsANoteForAnOlderTarget() async throws {
    let fixture = Fixture(text: markdownImporter(minimumSystemVersion: "12.0"))
    let run = try await runValidate([fixture], arguments: ["--strict"])
    let redeclared = run.with(code: "redeclared-system-type")
    #expect(redeclared.map(\.severity) == ["note"])
    let position = fixture.position(of: "<string>net.daringfireball.markdown")
    #expect(redeclared.first?.line == position.line)
    #expect(redeclared.first?.column == position.column)
    #expect(redeclared.first?.message.contains("only from macOS 27.0 on;") == true)
    #expect(redeclared.first?.message.contains("supports macOS 12.0") == true)
    #expect(run.status == 0)
  }

  @Test func anImportOfATypeTheSystemDeclaresByTheTargetIsIgnored() async throws {
    let fixture = Fixture(text: markdownImporter(minimumSystemVersion: "27.1"))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "redeclared-system-type", severity: "warning",
      at: fixture.position(of: "<string>net.daringfireball.markdown"), status: 0)
    #expect(run.with(code: "redeclared-system-type").first?.message.contains("is ignored") == true)
  }

  @Test func anIOSTargetIsReadFromMinimumOSVersion() async throws {
    let old = Fixture(
      text: infoPlist(
        imported: typeDict("public.heic", conformsTo: ["public.image"], extensions: ["heic"])
      )
      .replacingOccurrences(
        of: "  <key>CFBundleIdentifier</key>",
        with:
          "  <key>MinimumOSVersion</key>\n  <string>10.3</string>\n  <key>CFBundleIdentifier</key>")
    )
    let oldRun = try await runValidate([old])
    #expect(oldRun.with(code: "redeclared-system-type").map(\.severity) == ["note"])
    #expect(
      oldRun.with(code: "redeclared-system-type").first?.message.contains(
        "only from iOS 11.0 on; this bundle supports iOS 10.3") == true)

    let current = Fixture(text: old.text.replacingOccurrences(of: ">10.3<", with: ">12.0<"))
    let currentRun = try await runValidate([current])
    #expect(currentRun.with(code: "redeclared-system-type").map(\.severity) == ["warning"])
  }

  @Test func defineFillsTheDeploymentTargetIn() async throws {
    let fixture = Fixture(
      text: markdownImporter(minimumSystemVersion: "$(MACOSX_DEPLOYMENT_TARGET)"))
    let unknown = try await runValidate([fixture])
    #expect(unknown.with(code: "redeclared-system-type").map(\.severity) == ["note"])
    #expect(unknown.with(code: "unresolved-variable").isEmpty)
    let current = try await runValidate(
      [fixture], arguments: ["-D", "MACOSX_DEPLOYMENT_TARGET=27.0"])
    #expect(current.with(code: "redeclared-system-type").map(\.severity) == ["warning"])
  }

  @Test func withoutADeploymentTargetTheNoteSaysWhenTheSystemsDeclarationWins() async throws {
    let fixture = Fixture(text: markdownImporter(minimumSystemVersion: nil))
    let run = try await runValidate([fixture], arguments: ["--strict"])
    let redeclared = run.with(code: "redeclared-system-type")
    #expect(redeclared.map(\.severity) == ["note"])
    #expect(redeclared.first?.message.contains("from then on this import is ignored") == true)
    #expect(run.status == 0)
  }

  @Test func aTypeEveryVersionDeclaresIsIgnoredWhateverTheTarget() async throws {
    let fixture = Fixture(
      text: infoPlist(
        imported: typeDict("public.plain-text", conformsTo: ["public.text"], extensions: ["txt"])
      )
      .replacingOccurrences(
        of: "  <key>CFBundleIdentifier</key>",
        with:
          "  <key>LSMinimumSystemVersion</key>\n  <string>10.9</string>\n  <key>CFBundleIdentifier</key>"
      ))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "redeclared-system-type", severity: "warning",
      at: fixture.position(of: "<string>public.plain-text"), status: 0)
  }

  // MARK: Rival claims on tags that belong to someone else (issue 34 §6)

  @Test(arguments: [
    ("application/octet-stream", "public.data"), ("text/plain", "public.plain-text"),
    ("application/xml", "public.xml"),
  ])
  func aSpecificTypeClaimingAGenericMIMETypeIsTold(_ mimeType: String, _ owner: String)
    async throws
  {
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict(
          "com.acme.notes.note", extensions: ["anote"],
          extra: "      <key>UTTypeTagSpecification</key>\n      <dict>\n"
            + "        <key>public.mime-type</key>\n        <string>\(mimeType)</string>\n"
            + "      </dict>\n")))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "duplicate-mime-type", severity: "warning",
      at: fixture.position(of: "<string>\(mimeType)"), status: 0)
    #expect(
      run.with(code: "duplicate-mime-type").first?.message.contains(
        "belongs to the system type \(owner), which wins") == true)
  }

  @Test func anImportedMIMEClashIsCheckedLikeAnExportedOne() async throws {
    let fixture = Fixture(
      text: infoPlist(
        imported: typeDict(
          "org.acme.report", extensions: ["arpt"],
          extra: "      <key>UTTypeTagSpecification</key>\n      <dict>\n"
            + "        <key>public.mime-type</key>\n        <string>text/plain</string>\n"
            + "      </dict>\n")))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "duplicate-mime-type", severity: "warning",
      at: fixture.position(of: "<string>text/plain"), status: 0)
  }

  @Test func twoExportedTypesClaimingOneMIMETypeAreTold() async throws {
    func type(_ identifier: String, _ filenameExtension: String) -> String {
      typeDict(
        identifier, extensions: [filenameExtension],
        extra: "      <key>UTTypeTagSpecification</key>\n      <dict>\n"
          + "        <key>public.mime-type</key>\n        <string>application/x-acme</string>\n"
          + "      </dict>\n")
    }
    let fixture = Fixture(
      text: infoPlist(exported: type("com.acme.one", "aone") + type("com.acme.two", "atwo")))
    let run = try await runValidate([fixture])
    let clash = run.with(code: "duplicate-mime-type")
    #expect(clash.count == 1)
    #expect(
      clash.first?.line
        == fixture.position(of: "<string>application/x-acme", after: "com.acme.two").line)
  }

  @Test(arguments: [
    ("xml", "public.xml"), ("wav", "com.microsoft.waveform-audio"),
    ("sh", "public.shell-script"), ("log", "com.apple.log"),
  ])
  func anImportClaimingASystemExtensionStrandsADocumentTypeThatListsOnlyIt(
    _ filenameExtension: String, _ owner: String
  ) async throws {
    let fixture = Fixture(
      text: infoPlist(
        imported: typeDict("org.acme.\(filenameExtension)-file", extensions: [filenameExtension]),
        documentTypes: documentTypeDict(
          name: "Files", rank: "Default", contentTypes: ["org.acme.\(filenameExtension)-file"])))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "duplicate-extension", severity: "warning",
      at: fixture.position(of: "<string>\(filenameExtension)</string>"), status: 0)
    let message = run.with(code: "duplicate-extension").first?.message ?? ""
    #expect(message.contains("system type \(owner), which wins on Apple's systems"), "\(message)")
    #expect(
      run.with(code: "duplicate-extension").first?.hint
        == "list \(owner) in the document type's LSItemContentTypes")
  }

  @Test func anImportBesideTheSystemTypeInTheDocumentTypeIsFine() async throws {
    let fixture = Fixture(
      text: infoPlist(
        imported: typeDict("org.acme.xml-file", extensions: ["xml"]),
        documentTypes: documentTypeDict(
          name: "Files", rank: "Default", contentTypes: ["org.acme.xml-file", "public.xml"])))
    let run = try await runValidate([fixture])
    #expect(run.with(code: "duplicate-extension").isEmpty)
  }

  // MARK: Exporting someone else's type (issue 34 §7)

  /// A bundle of its own domain, com.acme.maps, exporting another vendor's format.
  private func mapsApp(exported: String, imported: String = "") -> String {
    infoPlist(exported: exported, imported: imported).replacingOccurrences(
      of: "<string>com.example.app</string>", with: "<string>com.acme.maps</string>")
  }

  @Test func anExportAlsoImportedUnderAForeignDomainKeepsTheImport() async throws {
    let gpx = typeDict("com.topografix.gpx", conformsTo: ["public.xml"], extensions: ["gpx"])
    let fixture = Fixture(text: mapsApp(exported: gpx, imported: gpx))
    let run = try await runValidate([fixture])
    let both = run.with(code: "exported-and-imported")
    #expect(both.count == 1)
    #expect(both.first?.hint?.hasPrefix("remove the export and keep the import") == true)
    #expect(run.with(code: "foreign-export").isEmpty)
  }

  @Test func anExportAlsoImportedInTheBundlesOwnDomainKeepsTheExport() async throws {
    let own = typeDict("com.acme.route", extensions: ["aroute"])
    let fixture = Fixture(text: mapsApp(exported: own, imported: own))
    let run = try await runValidate([fixture])
    #expect(run.with(code: "exported-and-imported").first?.hint == "remove the import")
  }

  static let desktopDatabaseInstalled = FileManager.default.fileExists(
    atPath: "/usr/share/mime/packages/freedesktop.org.xml")

  @Test(.enabled(if: desktopDatabaseInstalled, "needs shared-mime-info's database"))
  func anExportOfAFormatTheDesktopKnowsUnderAForeignDomainWarns() async throws {
    let fixture = Fixture(
      text: mapsApp(
        exported: typeDict("com.topografix.gpx", conformsTo: ["public.xml"], extensions: ["gpx"])))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "foreign-export", severity: "warning",
      at: fixture.position(of: "<string>com.topografix.gpx"), status: 0)
    #expect(run.with(code: "foreign-export").first?.message.contains("application/gpx+xml") == true)
  }

  // MARK: App Store and Launch Services rules (issue 34 §8)

  @Test func anAppsDocumentTypeWithoutANameIsAnError() async throws {
    let fixture = Fixture(
      text: withPackageType(
        infoPlist(documentTypes: pluginDocumentType(role: "Viewer")), "APPL"))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "missing-type-name", severity: "error",
      at: fixture.position(of: "<dict>", after: "CFBundleDocumentTypes"), status: 1)
  }

  @Test func aPluginsDocumentTypeNeedsNoName() async throws {
    let fixture = Fixture(
      text: withPackageType(infoPlist(documentTypes: pluginDocumentType(role: "Viewer")), "BNDL"))
    let run = try await runValidate([fixture])
    #expect(run.with(code: "missing-type-name").isEmpty)
  }

  @Test(arguments: ["public.plain-text", "public.audio", "public.xml"])
  func ownerOfASystemTypeIsAWarning(_ systemType: String) async throws {
    let fixture = Fixture(
      text: infoPlist(documentTypes: documentTypeDict(rank: "Owner", contentTypes: [systemType])))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "system-type-owner", severity: "warning",
      at: fixture.position(of: "<string>Owner"), status: 0)
  }

  @Test func ownerOfTheAppsOwnTypeIsFine() async throws {
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict("com.example.doc", extensions: ["exd"]),
        documentTypes: documentTypeDict(rank: "Owner", contentTypes: ["com.example.doc"])))
    let run = try await runValidate([fixture], arguments: ["--strict"])
    #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map { "\($0.code) \($0.message)" })")
  }

  @Test(arguments: ["****", "TEXT"])
  func aWildcardOrTextOSTypeOnAnOwnerRankedTypeIsAWarning(_ osType: String) async throws {
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict("com.example.doc", extensions: ["exd"]),
        documentTypes: documentTypeDict(
          rank: "Owner", contentTypes: ["com.example.doc"],
          extra: "      <key>CFBundleTypeOSTypes</key>\n      <array>\n"
            + "        <string>\(osType)</string>\n      </array>\n")))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "generic-ostype", severity: "warning",
      at: fixture.position(of: "<string>\(osType)"), status: 0)
  }

  @Test func aWildcardOSTypeOnAnAlternateRankedTypeIsFine() async throws {
    let fixture = Fixture(
      text: infoPlist(
        documentTypes: documentTypeDict(
          rank: "Alternate", contentTypes: ["public.data"],
          extra: "      <key>CFBundleTypeOSTypes</key>\n      <array>\n"
            + "        <string>****</string>\n      </array>\n")))
    let run = try await runValidate([fixture])
    #expect(run.with(code: "generic-ostype").isEmpty)
  }

  @Test(arguments: [
    "com.example.doc", "com.yourcompany.doc", "com.unknown.md", "com.mycompany.doc",
  ])
  func aShippedBundleDeclaringAPlaceholderDomainIsWarned(_ identifier: String) async throws {
    let fixture = Fixture(text: mapsApp(exported: typeDict(identifier, extensions: ["pdoc"])))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "placeholder-identifier", severity: "warning",
      at: fixture.position(of: "<string>\(identifier)"), status: 0)
  }

  @Test func aSampleInThePlaceholderDomainItselfIsNotWarned() async throws {
    // infoPlist's bundle is com.example.app: a sample or a template, not a shipped app.
    let fixture = Fixture(
      text: infoPlist(exported: typeDict("com.example.doc", extensions: ["pdoc"])))
    let run = try await runValidate([fixture], arguments: ["--strict"])
    #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map { "\($0.code) \($0.message)" })")
  }
}
