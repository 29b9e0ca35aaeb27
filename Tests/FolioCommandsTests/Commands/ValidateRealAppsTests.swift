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
      text: withPackageType(infoPlist(documentTypes: pluginDocumentType(role: "Viewer")), "APPL"))
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
}
