import PropertyLists
import Testing

@testable import UniformTypes

@Suite struct SharedDeclarationTests {
  private func declaration(_ kind: TypeDeclaration.Kind, extensions: [String]) -> TypeDeclaration {
    TypeDeclaration(
      identifier: "com.example.notebook", kind: kind, conformsTo: [.package],
      tags: extensions.map { TypeTag(.filenameExtension, $0) },
      location: SourceLocation(file: "Info.plist", line: 1), sourceName: "Info.plist")
  }

  @Test func registriesShareTheBuildersDeclarationsInsteadOfCopyingThem() throws {
    let builder = TypeRegistryBuilder()
    let first = builder.build()
    let second = builder.build()
    let position = try #require(first.indexByIdentifier[.utf8PlainText])
    let stored = try #require(first.nodes[Int(position)].storedDeclaration)
    #expect(second.nodes[Int(position)].storedDeclaration === stored)
    #expect(stored.value.identifier == .utf8PlainText)
  }

  @Test func aRegistryBuiltEarlierKeepsItsDeclarationWhenTheBuilderReplacesIt() {
    var builder = TypeRegistryBuilder()
    builder.add(declaration(.imported, extensions: ["old"]))
    let before = builder.build()
    // An exported declaration replaces the imported one in the builder, not in `before`.
    builder.add(declaration(.exported, extensions: ["new"]))
    let after = builder.build()
    #expect(before.declaration(for: "com.example.notebook")?.filenameExtensions == ["old"])
    #expect(after.declaration(for: "com.example.notebook")?.filenameExtensions == ["new"])
    #expect(before.type(forFilenameExtension: "new") == nil)
    #expect(after.type(forFilenameExtension: "new") == "com.example.notebook")
  }
}
