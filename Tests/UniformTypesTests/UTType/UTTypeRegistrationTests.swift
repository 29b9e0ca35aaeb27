import FolioTestSupport
import Foundation
import Testing
import TypeValidation
import UniformTypes

/// Registering an app's declarations, as the system reads an app's Info.plist on Apple's
/// platforms (https://developer.apple.com/documentation/uniformtypeidentifiers/defining-file-and-data-types-for-your-app):
/// one registry per process, judged by the validator's rules for one declaration.
@Suite struct UTTypeRegistrationTests {
  /// A fresh identifier per test: the registry is one per process, shared by parallel tests.
  private static func uniqueIdentifier(_ stem: String) -> String {
    "com.example.\(stem)-\(UUID().uuidString.prefix(8).lowercased())"
  }

  /// An Info.plist exporting one type, in XML.
  private static func infoPlist(
    identifier: String, conformsTo parents: [String], extension fileExtension: String
  ) -> Data {
    let parentList = parents.map { "<string>\($0)</string>" }.joined()
    return Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
        <key>UTExportedTypeDeclarations</key>
        <array>
          <dict>
            <key>UTTypeIdentifier</key><string>\(identifier)</string>
            <key>UTTypeDescription</key><string>Test Document</string>
            <key>UTTypeConformsTo</key><array>\(parentList)</array>
            <key>UTTypeTagSpecification</key>
            <dict>
              <key>public.filename-extension</key><array><string>\(fileExtension)</string></array>
            </dict>
          </dict>
        </array>
      </dict>
      </plist>
      """.utf8)
  }

  @Test func registeringTheSameFileTwiceIsANoOp() async throws {
    try await withTemporaryDirectory("register-twice") { folder in
      let identifier = Self.uniqueIdentifier("twice")
      let plist = folder.appendingPathComponent("Info.plist")
      try Self.infoPlist(
        identifier: identifier, conformsTo: ["com.apple.package"],
        extension: "zz" + identifier.suffix(8)
      ).write(to: plist)
      let first = try UTType.registerDeclarations(contentsOf: plist)
      let second = try UTType.registerDeclarations(contentsOf: plist)
      #expect(first.isEmpty)
      #expect(second.isEmpty)
      #expect(!second.contains { $0.code == "duplicate-identifier" })
      #expect(UTType(identifier)?.conforms(to: .package) == true)
      // The one registry of the process holds it: what packing and identifying read.
      #expect(TypeRegistry.default.isDeclared(TypeIdentifier(identifier)))
    }
  }

  @Test func aChangedFileRegisteredAgainIsMergedAsANewSource() async throws {
    try await withTemporaryDirectory("register-changed") { folder in
      let identifier = Self.uniqueIdentifier("changed")
      let plist = folder.appendingPathComponent("Info.plist")
      let fileExtension = "zz" + identifier.suffix(8)
      try Self.infoPlist(
        identifier: identifier, conformsTo: ["public.data"], extension: fileExtension
      )
      .write(to: plist)
      #expect(try UTType.registerDeclarations(contentsOf: plist).isEmpty)
      try Self.infoPlist(
        identifier: identifier, conformsTo: ["public.data", "public.text"], extension: fileExtension
      ).write(to: plist)
      let again = try UTType.registerDeclarations(contentsOf: plist)
      #expect(again.contains { $0.code == "duplicate-identifier" })
    }
  }

  /// `folio validate` reports a misspelt parent; registration reports it the same way.
  @Test func aMisspeltSupertypeComesBackWithTheLikelySpelling() async throws {
    try await withTemporaryDirectory("register-typo") { folder in
      let identifier = Self.uniqueIdentifier("typo")
      let plist = folder.appendingPathComponent("Info.plist")
      try Self.infoPlist(
        identifier: identifier, conformsTo: ["com.apple.pakage"],
        extension: "zz" + identifier.suffix(8)
      ).write(to: plist)
      let diagnostics = try UTType.registerDeclarations(contentsOf: plist)
      let typo = try #require(diagnostics.first { $0.message.contains("com.apple.pakage") })
      #expect(typo.code == "unknown-system-type")
      #expect(typo.hint == "did you mean com.apple.package?")
      #expect(typo.location?.file == plist.path)
      #expect(typo.location?.line != nil)
      // The validator says the same of the same file.
      let validated = TypeDeclarationValidator()
        .validate([try DeclarationSource(contentsOf: plist)])
      #expect(validated.contains(typo))
    }
  }

  @Test func anExportedTypeWithoutABaseTypeIsReported() throws {
    let identifier = Self.uniqueIdentifier("nobase")
    let source = DeclarationSource(
      name: "NoBase.plist",
      exported: [
        TypeDeclaration(
          identifier: TypeIdentifier(identifier), kind: .exported,
          conformsTo: [TypeIdentifier("public.content")],
          tags: [TypeTag(.filenameExtension, "zz" + identifier.suffix(8))])
      ])
    let diagnostics = UTType.registerDeclarations(source)
    #expect(diagnostics.map(\.code) == ["missing-base-type"])
    // Registered all the same, as Launch Services takes it.
    #expect(UTType(identifier)?.conforms(to: .content) == true)
  }

  @Test func onlyTheRulesForOneDeclarationRunAtRegistration() {
    let rules = TypeDeclarationValidator.declarationRules
    #expect(rules.contains(.unknownSupertype))
    #expect(rules.contains(.missingBaseType))
    // Merging reports these (the registry builder's own), and document types are not
    // declarations.
    #expect(!rules.contains(.duplicateIdentifier))
    #expect(!rules.contains(.conflictingDeclaration))
    #expect(!rules.contains(.undeclaredContentType))
    #expect(!rules.contains(.duplicateExtension))
  }
}
