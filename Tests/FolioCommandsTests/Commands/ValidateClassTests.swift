import FolioCommands
import FolioTestSupport
import Foundation
import Testing

/// The classes of false positives and missed defects seen on real apps (issue 11 §2), each
/// checked on a realistic fixture of its class.
@Suite struct ValidateClassTests {
  // MARK: False positives

  @Test func aDocumentTypeMayListOtherAppsTypesBesideItsOwn() async throws {
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict("com.example.notes", extensions: ["notes"]),
        documentTypes: documentTypeDict(
          contentTypes: ["com.example.notes", "com.evernote.enex", "net.shinyfrog.bear.note"])))
    let run = try await runValidate([fixture])
    #expect(run.status == 0, "\(run.diagnostics.map(\.message))")
    let foreign = run.with(code: "foreign-content-type")
    #expect(foreign.map(\.severity) == ["note", "note"])
    #expect(foreign.first?.line == fixture.position(of: "<string>com.evernote.enex").line)
    #expect(run.with(code: "undeclared-content-type").isEmpty)
  }

  @Test func aDocumentTypeWhoseTypesAreAllUndeclaredIsStillAnError() async throws {
    let fixture = Fixture(
      text: infoPlist(
        documentTypes: documentTypeDict(contentTypes: ["com.example.gone", "org.example.also"])))
    let run = try await runValidate([fixture])
    #expect(run.with(code: "undeclared-content-type").count == 2)
    #expect(run.with(code: "foreign-content-type").isEmpty)
    #expect(run.status == 1)
  }

  @Test func aNearMissOfTheAppsOwnTypeIsAnErrorWithTheRightSpelling() async throws {
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict("com.example.notebook", extensions: ["nb"]),
        documentTypes: documentTypeDict(
          contentTypes: ["com.example.notebok", "public.plain-text"])))
    let run = try await runValidate([fixture])
    let typo = run.with(code: "undeclared-content-type")
    #expect(typo.count == 1)
    #expect(typo.first?.hint == "did you mean com.example.notebook?")
    #expect(run.status == 1)
  }

  @Test func appleDomainNamesNoSystemDeclaresAreWarningsNotTypos() async throws {
    let fixture = Fixture(
      text: infoPlist(
        documentTypes: documentTypeDict(contentTypes: ["public.made-up-video", "public.plain-text"])
      ))
    let run = try await runValidate([fixture])
    let missing = run.with(code: "unknown-system-type")
    #expect(missing.map(\.severity) == ["warning"])
    #expect(missing.first?.message.contains("none of Apple's systems declares") == true)
    #expect(missing.first?.message.contains("declared nowhere") == false)
    #expect(missing.first?.hint?.contains("spelling") == false)
    #expect(run.status == 0)
  }

  @Test func anInventedPublicNameIsShownTheSystemTypeForTheExtensionItSpells() async throws {
    // Apps list public.markdown (seen in two real Info.plists); Apple's type for Markdown is
    // John Gruber's, net.daringfireball.markdown, which claims the .markdown extension.
    let fixture = Fixture(
      text: infoPlist(documentTypes: documentTypeDict(contentTypes: ["public.markdown"])))
    let run = try await runValidate([fixture], arguments: ["--strict"])
    let missing = run.with(code: "unknown-system-type")
    #expect(
      missing.first?.message
        == "document type 'Doc' lists public.markdown, a public. name (only Apple names those) that none of Apple's systems declares; no file matches it where nothing declares it"
    )
    #expect(
      missing.first?.hint
        == "the system's type for files with extension 'markdown' is net.daringfireball.markdown")
    #expect(run.status == 1)
  }

  @Test func anAppleAppsTypeIsToldApartFromAnInventedPublicName() async throws {
    // Terminal and Xcode, not the system, declare these two.
    let fixture = Fixture(
      text: infoPlist(
        documentTypes: documentTypeDict(
          contentTypes: [
            "com.apple.terminal.shell-script", "com.apple.xcode.bash-script", "public.shell-script",
          ])))
    let run = try await runValidate([fixture])
    let missing = run.with(code: "unknown-system-type")
    #expect(missing.count == 2)
    #expect(
      missing.allSatisfy {
        $0.message.contains("which Apple's systems do not declare (an Apple app may)")
      })
    #expect(missing.first?.hint?.contains("UTImportedTypeDeclarations") == true)
    #expect(missing.first?.hint?.contains("--declarations") == true)
    #expect(
      missing.last?.hint
        == "the system's type for files with extension 'bash' is public.bash-script")
    #expect(run.status == 0)
  }

  @Test func dynamicIdentifiersInDocumentTypesAreNotesSayingWhatTheyStandFor() async throws {
    // The identifier macOS gives `.md` files when no type claims them, as Quick Look
    // generators list it on purpose.
    let fixture = Fixture(
      text: infoPlist(
        documentTypes: documentTypeDict(
          role: "QLGenerator", contentTypes: ["dyn.ah62d4rv4ge8043a", "public.plain-text"])))
    let run = try await runValidate([fixture], arguments: ["--strict"])
    let notes = run.with(code: "dynamic-content-type")
    #expect(notes.map(\.severity) == ["note"])
    #expect(notes.first?.message.contains("files with extension 'md'") == true)
    #expect(notes.first?.message.contains("ignores") == false)
    #expect(run.status == 0)
  }

  @Test func buildVariablesInKeysFolioDoesNotInterpretAreNotReported() async throws {
    // CotEditor's NSDocumentClass, as Xcode projects write it.
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict("com.example.doc", extensions: ["exdoc"]),
        documentTypes: documentTypeDict(
          name: "$(PRODUCT_NAME) Document", contentTypes: ["com.example.doc"],
          extra:
            "      <key>NSDocumentClass</key>\n      <string>$(PRODUCT_MODULE_NAME).Document</string>\n"
        )))
    let run = try await runValidate([fixture], arguments: ["--strict"])
    #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map(\.message))")
    #expect(run.status == 0)
  }

  @Test func cmakePlaceholdersAreBuildVariablesThatDefineResolves() async throws {
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict(
          "@BUNDLE_ID@.project", extensions: ["mmp"],
          extra:
            "      <key>UTTypeTagSpecification</key>\n      <dict>\n        <key>public.mime-type</key>\n        <string>application/x-@PROJECT@-project</string>\n      </dict>\n"
        )))
    let run = try await runValidate([fixture])
    let unresolved = run.with(code: "unresolved-variable")
    #expect(unresolved.count == 2)
    #expect(unresolved.allSatisfy { $0.severity == "warning" })
    #expect(
      unresolved.map(\.hint) == ["-D BUNDLE_ID=value resolves it", "-D PROJECT=value resolves it"])
    #expect(run.with(code: "invalid-mime-type").isEmpty)
    #expect(run.with(code: "invalid-identifier").isEmpty)
    let defined = try await runValidate(
      [fixture], arguments: ["-D", "BUNDLE_ID=org.lmms", "-D", "PROJECT=lmms"])
    #expect(defined.with(code: "unresolved-variable").isEmpty)
    #expect(defined.with(code: "invalid-identifier").isEmpty)
  }

  @Test func xcodesDefaultModifierGivesAValueWhenNoneIsDefined() async throws {
    let fixture = Fixture(
      text: infoPlist(exported: typeDict("$(TYPE_ID:default=com.example.doc)", extensions: ["d1"])))
    let run = try await runValidate([fixture], arguments: ["--strict"])
    #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map(\.message))")
  }

  // MARK: Missed defects

  @Test func lsTypeIsPackageOnAFileTypeIsReportedEvenWithAnUnknownParent() async throws {
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict(
          "com.example.bundle-doc", conformsTo: ["public.data", "com.example.undeclared-parent"],
          extensions: ["bdoc"]),
        documentTypes: documentTypeDict(
          contentTypes: ["com.example.bundle-doc"],
          extra: "      <key>LSTypeIsPackage</key>\n      <true/>\n")))
    let run = try await runValidate([fixture])
    let found = run.with(code: "package-not-conforming")
    #expect(found.count == 1)
    #expect(found.first?.message.contains("conforms to public.data (a file)") == true)
    #expect(run.status == 1)
  }

  @Test func exportingATypeTheSystemDeclaresIsAnError() async throws {
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict("com.adobe.pdf", extensions: ["pdf"])))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "exported-system-type", severity: "error",
      at: fixture.position(of: "<string>com.adobe.pdf"), status: 1)
    #expect(run.with(code: "duplicate-extension").isEmpty)
  }

  @Test func importingAPublicIdentifierNoSystemDeclaresIsReported() async throws {
    let fixture = Fixture(
      text: infoPlist(imported: typeDict("public.folio-invented-format", extensions: ["fif"])))
    let run = try await runValidate([fixture])
    expectSingle(
      run, code: "unknown-system-type", severity: "warning",
      at: fixture.position(of: "<string>public.folio-invented-format"), status: 0)
    #expect(
      run.diagnostics.first?.message.hasPrefix(
        "imported type public.folio-invented-format, a public. name (only Apple names those) that none of Apple's systems declares"
      ) == true)
  }

  // MARK: Messages

  @Test func invisibleCharactersAreShownEscaped() async throws {
    let fixture = Fixture(
      text: infoPlist(exported: typeDict("com.example\u{200B}.doc", extensions: ["zw"])))
    let run = try await runValidate([fixture])
    let invalid = run.with(code: "invalid-identifier")
    #expect(invalid.count == 1)
    #expect(invalid.first?.message.contains("com.example\\u{200B}.doc") == true)
    #expect(invalid.first?.message.contains("\u{200B}") == false)
    #expect(invalid.first?.message.contains("invisible character") == true)
  }

  @Test(arguments: [
    ("application/x-@NAME-project", "contains '@'"),
    ("text", "has no '/'"),
    ("text/", "has an empty subtype"),
    ("a/b/c", "more than one '/'"),
    ("text/plain; charset", "malformed parameter"),
  ])
  func invalidMIMETypesSayWhatIsWrong(_ mime: String, _ phrase: String) async throws {
    let fixture = Fixture(
      text: infoPlist(
        exported: typeDict(
          "com.example.mime", extensions: ["mm"],
          extra:
            "      <key>UTTypeTagSpecification</key>\n      <dict>\n        <key>public.mime-type</key>\n        <string>\(mime)</string>\n      </dict>\n"
        )))
    let run = try await runValidate([fixture])
    let invalid = run.with(code: "invalid-mime-type")
    #expect(invalid.count == 1, "\(mime)")
    #expect(invalid.first?.message.contains(phrase) == true, "\(invalid.first?.message ?? "")")
  }

  @Test func aDuplicateExtensionThatDiffersByCaseNamesBothSpellings() async throws {
    let fixture = Fixture(
      text: infoPlist(exported: typeDict("com.example.pix", extensions: ["pix", "PIX"])))
    let run = try await runValidate([fixture])
    let duplicate = run.with(code: "duplicate-extension")
    #expect(duplicate.count == 1)
    #expect(duplicate.first?.message.contains("'PIX'") == true)
    #expect(duplicate.first?.message.contains("'pix'") == true)
  }

  @Test func anUnmodifiedXcodeInfoPlistThatDeclaresTypesCorrectlyPasses() async throws {
    // Kiwix's and OpenEmu's Info.plists, as their repositories hold them (build variables too).
    for name in [
      "kiwix__kiwix-apple__Support__Info.plist", "OpenEmu__OpenEmu__OpenEmu__OpenEmu-Info.plist",
    ] {
      let text = try String(
        contentsOf: ProjectPaths.plistCorpus.appendingPathComponent(name), encoding: .utf8)
      let run = try await runValidate([Fixture(name: "Info.plist", text: text)])
      #expect(run.status == 0, "\(name): \(run.diagnostics.map(\.message))")
      #expect(run.with(code: "unresolved-variable").isEmpty)
    }
  }
}
