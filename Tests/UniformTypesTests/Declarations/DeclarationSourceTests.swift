import FolioTestSupport
import PropertyLists
import Testing
import UniformTypes

@Suite struct DeclarationSourceTests {
  @Test func decodesEveryDocumentedKeyWithLocations() throws {
    var b = PlistBuilder()
    let declaration = b.dict([
      ("UTTypeIdentifier", b.string("com.example.notebook")),
      ("UTTypeConformsTo", b.string("com.apple.package")),
      ("UTTypeDescription", b.string("Notebook")),
      ("UTTypeIconFile", b.string("Notebook.icns")),
      ("UTTypeIconFiles", b.strings(["a.png", "b.png"])),
      ("UTTypeIcons", b.dict([("UTTypeIconText", b.string("nb"))])),
      ("UTTypeReferenceURL", b.string("https://example.com")),
      ("UTTypeVersion", b.string("2")),
      (
        "UTTypeTagSpecification",
        b.dict([
          ("public.filename-extension", b.strings(["examplenotebook", "nb"])),
          ("public.mime-type", b.string("application/x-notebook")),
          ("com.apple.ostype", b.string("svg ")),
        ])
      ),
      ("NSCustomKey", b.integer(7)),
    ])
    let root = b.dict([("UTExportedTypeDeclarations", b.array([declaration]))])
    let source = DeclarationSource(decoding: root, name: "Test.plist")
    #expect(source.diagnostics.isEmpty)
    let decoded = try #require(source.exported.first)
    #expect(decoded.typeIdentifier == "com.example.notebook")
    #expect(decoded.identifierLocation?.line == 1)
    #expect(decoded.kind == .exported)
    #expect(decoded.parents == [.package])
    #expect(decoded.typeDescription?.value == "Notebook")
    #expect(decoded.iconFile?.value == "Notebook.icns")
    #expect(decoded.iconFiles.map(\.value) == ["a.png", "b.png"])
    #expect(decoded.icons?["UTTypeIconText"]?.stringValue == "nb")
    #expect(decoded.referenceURL?.value == "https://example.com")
    #expect(decoded.version?.value == "2")
    #expect(decoded.filenameExtensions == ["examplenotebook", "nb"])
    #expect(decoded.mimeTypes == ["application/x-notebook"])
    #expect(decoded.tags(.osType) == ["svg "])
    #expect(decoded.tags.first?.location?.line != nil)
    #expect(decoded.otherKeys.map(\.key) == ["NSCustomKey"])
    #expect(decoded.sourceName == "Test.plist")
  }

  @Test func decodesDocumentTypes() throws {
    var b = PlistBuilder()
    let documentType = b.dict([
      ("CFBundleTypeName", b.string("Notebook")),
      ("CFBundleTypeRole", b.string("Editor")),
      ("LSHandlerRank", b.string("Owner")),
      ("LSItemContentTypes", b.strings(["com.example.notebook"])),
      ("LSTypeIsPackage", b.bool(true)),
      ("CFBundleTypeExtensions", b.strings(["nb"])),
      ("CFBundleTypeMIMETypes", b.strings(["application/x-nb"])),
      ("CFBundleTypeOSTypes", b.strings(["NBK "])),
      ("CFBundleTypeIconFile", b.string("nb.icns")),
      ("NSDocumentClass", b.string("Document")),
      ("NSExportableTypes", b.strings(["public.pdf"])),
      ("NSUbiquitousDocumentUserActivityType", b.string("x")),
    ])
    let root = b.dict([("CFBundleDocumentTypes", b.array([documentType]))])
    let source = DeclarationSource(decoding: root, name: "Test.plist")
    #expect(source.diagnostics.isEmpty)
    let decoded = try #require(source.documentTypes.first)
    #expect(decoded.name?.value == "Notebook")
    #expect(decoded.role?.value == "Editor")
    #expect(decoded.handlerRank?.value == "Owner")
    #expect(decoded.contentTypeIdentifiers.map(\.value) == ["com.example.notebook"])
    #expect(decoded.isPackage?.value == true)
    #expect(decoded.extensions.map(\.value) == ["nb"])
    #expect(decoded.mimeTypes.map(\.value) == ["application/x-nb"])
    #expect(decoded.osTypes.map(\.value) == ["NBK "])
    #expect(decoded.iconFile?.value == "nb.icns")
    #expect(decoded.documentClass?.value == "Document")
    #expect(decoded.exportableTypeIdentifiers.map(\.value) == ["public.pdf"])
    #expect(decoded.otherKeys.map(\.key) == ["NSUbiquitousDocumentUserActivityType"])
  }

  @Test func substitutesBuildVariablesAndReportsTheRest() throws {
    var b = PlistBuilder()
    let declaration = declarationDict(
      &b, identifier: "$(PRODUCT_BUNDLE_IDENTIFIER:rfc1034identifier).doc",
      conformsTo: ["${BASE_TYPE}"])
    let root = b.dict([("UTExportedTypeDeclarations", b.array([declaration]))])
    let source = DeclarationSource(
      decoding: root, name: "Test.plist",
      variables: BuildVariables(["PRODUCT_BUNDLE_IDENTIFIER": "com.example.My App"]))
    #expect(source.exported.first?.typeIdentifier.rawValue == "com.example.My-App.doc")
    #expect(source.diagnostics.isEmpty)
    #expect(source.unresolvedVariables.map(\.key) == ["UTTypeConformsTo"])
    #expect(source.unresolvedVariables.first?.references == ["${BASE_TYPE}"])
    #expect(source.unresolvedVariables.first?.names == ["BASE_TYPE"])
  }

  @Test func parsesDefinitionsAndRejectsMalformedOnes() throws {
    let variables = try BuildVariables.parse(["A=1", "B=x=y", "A=2", "EMPTY="])
    #expect(variables.values == ["A": "2", "B": "x=y", "EMPTY": ""])
    #expect(throws: UniformTypeError.self) { try BuildVariables.parse(["NOVALUE"]) }
    #expect(throws: UniformTypeError.self) { try BuildVariables.parse(["=1"]) }
  }

  @Test func aFileWithoutDeclarationsIsAnEmptySource() {
    var b = PlistBuilder()
    let source = DeclarationSource(
      decoding: b.dict([("CFBundleName", b.string("App"))]), name: "Test.plist")
    #expect(source.declarations.isEmpty)
    #expect(source.documentTypes.isEmpty)
    #expect(source.diagnostics.isEmpty)
  }
}
