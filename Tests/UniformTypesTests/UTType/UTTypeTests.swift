import FolioTestSupport
import Foundation
import Testing
import TypeValidation
import UniformTypes

/// A fresh identifier per test: ``UTType/registry`` is one per process, shared by parallel tests.
private func uniqueIdentifier(_ stem: String) -> String {
  "com.example.\(stem)-\(UUID().uuidString.prefix(8).lowercased())"
}

/// Registers the sample app's Info.plist (`com.example.notebook`) once per process.
private let sampleDeclarationsRegistered: Bool = {
  _ = try? UTType.registerDeclarations(contentsOf: ProjectPaths.sampleInfoPlist)
  return true
}()

@Suite struct UTTypeTests {
  @Test func coreConstantsTheIssueListsAreDeclaredWithTheirParents() {
    let constants: [UTType] = [
      .item, .data, .content, .text, .plainText, .utf8PlainText, .json, .xml, .propertyList,
      .zip, .gzip, .archive, .folder, .directory, .package, .html, .markdown, .image, .png,
      .jpeg, .pdf, .movie, .audio,
    ]
    for type in constants {
      #expect(type.isDeclared, "\(type.identifier)")
      #expect(!type.isDynamic)
      // public.archive is a root of its own, as UTCoreTypes.h declares it.
      #expect(
        type == .archive || type.conforms(to: .item) || type.conforms(to: .content),
        "\(type.identifier)")
    }
    #expect(UTType.utf8PlainText.conforms(to: .plainText))
    #expect(UTType.plainText.conforms(to: .text))
    #expect(UTType.text.conforms(to: .data))
    #expect(UTType.package.conforms(to: .directory))
    #expect(!UTType.package.conforms(to: .data))
    #expect(UTType.zip.conforms(to: .archive))
    #expect(UTType.png.isSubtype(of: .image))
    #expect(UTType.image.isSupertype(of: .png))
    #expect(!UTType.png.isSubtype(of: .png))
    #expect(UTType.zip.identifier == "public.zip-archive")
    #expect(UTType.symbolicLink.identifier == "public.symlink")
  }

  @Test func identifierLookupKnowsDeclaredAndDynamicTypesOnly() throws {
    #expect(UTType("public.json") == .json)
    #expect(UTType("PUBLIC.JSON")?.identifier == "public.json")
    #expect(UTType("com.example.never-declared") == nil)
    #expect(UTType("") == nil)
    let dynamic = try #require(UTType(filenameExtension: "zzqx"))
    #expect(UTType(dynamic.identifier) == dynamic)
  }

  @Test func filenameExtensionsAndMIMETypesFindTheDeclaredTypeInAnyCase() throws {
    #expect(UTType(filenameExtension: "txt") == .plainText)
    #expect(UTType(filenameExtension: "TXT") == .plainText)
    #expect(UTType(filenameExtension: "json") == .json)
    #expect(UTType(filenameExtension: "png")?.preferredMIMEType == "image/png")
    #expect(UTType(mimeType: "application/json") == .json)
    #expect(UTType(mimeType: "Application/JSON") == .json)
    #expect(UTType(filenameExtension: "") == nil)
    #expect(UTType(mimeType: "") == nil)
    // A folder extension asked for as data is not the package type.
    #expect(
      UTType(tag: "zip", tagClass: .filenameExtension, conformingTo: .directory)?.isDynamic == true)
  }

  @Test func anUnclaimedExtensionGivesADynamicTypeThatConformsToTheRequestedParent() throws {
    let type = try #require(UTType(filenameExtension: "zzqx"))
    #expect(type.isDynamic)
    #expect(!type.isDeclared)
    #expect(!type.isPublic)
    #expect(type.identifier.hasPrefix("dyn.a"))
    #expect(type.conforms(to: .data))
    #expect(type.tags[.filenameExtension] == ["zzqx"])
    #expect(type.preferredFilenameExtension == "zzqx")
    #expect(type.localizedDescription == nil)
    let folder = try #require(UTType(filenameExtension: "zzqx", conformingTo: .directory))
    #expect(folder.conforms(to: .directory))
    #expect(folder != type)
    // The same input gives the same identifier on every run (Apple's encoding).
    #expect(UTType(filenameExtension: "md", conformingTo: .data)?.identifier != nil)
    #expect(
      UTType.types(tag: "zzqx", tagClass: .filenameExtension, conformingTo: nil).map(\.identifier)
        == [type.identifier])
  }

  @Test func anExportedTypeNobodyDeclaredConformsToItsAssumedParentUntilRegistered() throws {
    let identifier = uniqueIdentifier("export")
    let type = UTType(exportedAs: identifier)
    #expect(type.identifier == identifier)
    #expect(!type.isDeclared)
    #expect(!type.isDynamic)
    #expect(type.conforms(to: .data))
    #expect(!type.conforms(to: .package))
    #expect(type.preferredFilenameExtension == nil)
    #expect(UTType(identifier) == nil)

    let packageType = UTType(exportedAs: uniqueIdentifier("bundle"), conformingTo: .package)
    #expect(packageType.conforms(to: .directory))
    #expect(packageType.supertypes.contains(.package))
    #expect(packageType.supertypes.contains(.item))

    // Registering the program's declarations changes what the same value answers.
    let declaration = TypeDeclaration(
      identifier: TypeIdentifier(identifier), kind: .exported, conformsTo: [.package],
      tags: [TypeTag(.filenameExtension, "zzexport")], typeDescription: "Test Export",
      sourceName: "Test.plist")
    let diagnostics = UTType.registerDeclarations(
      DeclarationSource(name: "Test.plist", exported: [declaration]))
    #expect(diagnostics.isEmpty)
    #expect(type.isDeclared)
    #expect(type.conforms(to: .package))
    #expect(!type.conforms(to: .data))
    #expect(type.preferredFilenameExtension == "zzexport")
    #expect(type.localizedDescription == "Test Export")
    #expect(UTType(identifier) == type)
    #expect(UTType(filenameExtension: "zzexport", conformingTo: .package) == type)
  }

  @Test func anImportedTypeGivesWayToThePreferredOwnerOfItsExtension() throws {
    let owner = uniqueIdentifier("owner")
    let other = uniqueIdentifier("other")
    let ext = "zz" + owner.suffix(8)
    UTType.registerDeclarations(
      DeclarationSource(
        name: "Owner.plist",
        exported: [
          TypeDeclaration(
            identifier: TypeIdentifier(owner), kind: .exported, conformsTo: [.data],
            tags: [TypeTag(.filenameExtension, ext)])
        ],
        imported: [
          TypeDeclaration(
            identifier: TypeIdentifier(other), kind: .imported, conformsTo: [.data],
            tags: [TypeTag(.filenameExtension, ext)])
        ]))
    #expect(UTType(importedAs: other).identifier == owner)
    #expect(UTType(importedAs: "public.plain-text") == .plainText)
    let undeclared = UTType(importedAs: uniqueIdentifier("missing"), conformingTo: .text)
    #expect(undeclared.conforms(to: .text))
    #expect(!undeclared.isDeclared)
  }

  @Test func theSampleAppsDeclarationsAnswerEveryProperty() throws {
    #expect(sampleDeclarationsRegistered)
    let notebook = UTType(exportedAs: "com.example.notebook")
    #expect(notebook.isDeclared)
    #expect(notebook.conforms(to: .package))
    #expect(notebook.conforms(to: .compositeContent))
    #expect(notebook.preferredFilenameExtension == "examplenotebook")
    #expect(notebook.preferredMIMEType == "application/x-example-notebook")
    #expect(notebook.tags[.mimeType] == ["application/x-example-notebook"])
    #expect(notebook.localizedDescription == "Example Notebook")
    #expect(notebook.version == 1)
    #expect(notebook.referenceURL?.absoluteString == "https://example.com/notebook-format")
    #expect(!notebook.isPublic)
    #expect(UTType(filenameExtension: "examplenotebook", conformingTo: .package) == notebook)
    #expect(UTType(filenameExtension: "examplenotebook")?.isDynamic == true)
  }

  @Test func typesEncodeAsTheirIdentifierAloneAsApplesFrameworkDoes() throws {
    let encoded = try JSONEncoder().encode([UTType.json, .utf8PlainText])
    #expect(
      String(decoding: encoded, as: UTF8.self) == #"["public.json","public.utf8-plain-text"]"#)
    let decoded = try JSONDecoder().decode([UTType].self, from: encoded)
    #expect(decoded == [.json, .utf8PlainText])
    // A type this program never declared survives a round trip.
    let foreign = try JSONDecoder().decode(
      UTType.self, from: Data(#""com.example.from-elsewhere""#.utf8))
    #expect(foreign.identifier == "com.example.from-elsewhere")
    #expect(!foreign.isDeclared)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(UTType.self, from: Data(#""""#.utf8))
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(UTType.self, from: Data("42".utf8))
    }
  }

  @Test func equalityAndHashingIgnoreLetterCase() throws {
    let shouting = try #require(UTType("PUBLIC.PNG"))
    #expect(shouting == .png)
    #expect(Set([UTType.png, shouting]).count == 1)
    #expect(UTType.png.description == "public.png")
    #expect(UTType.png.debugDescription == "public.png (declared)")
    #expect(UTTagClass.mimeType.rawValue == "public.mime-type")
  }

  @Test func descriptionsComeFromTheTypeOrItsNearestDescribedSupertype() {
    #expect(UTType.plainText.localizedDescription != nil)
    #expect(UTType.json.localizedDescription != nil)
  }
}
