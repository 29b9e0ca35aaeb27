import FolioSystem
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
    #expect(stored.value.typeIdentifier == .utf8PlainText)
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
    #expect(before.identifier(forFilenameExtension: "new") == nil)
    #expect(after.identifier(forFilenameExtension: "new") == "com.example.notebook")
  }

  @Test func anUnchangedSystemTypeHoldsItsRowAndBuildsItsDeclarationWhenAsked() throws {
    let registry = TypeRegistryBuilder().build()
    let position = try #require(registry.indexByIdentifier["com.adobe.pdf"])
    let stored = try #require(registry.nodes[Int(position)].storedDeclaration)
    #expect(stored.isSystemRow)
    #expect(stored.kind == .system)
    #expect(stored.sourceName == nil)
    let declaration = stored.value
    #expect(declaration.typeIdentifier.rawValue == "com.adobe.pdf")
    #expect(declaration.kind == .system)
    #expect(declaration.parents == [.data, "public.composite-content"])
    #expect(declaration.filenameExtensions == ["pdf"])
    #expect(declaration.mimeTypes == ["application/pdf"])
    #expect(declaration.typeDescription?.value == "PDF document")
    #expect(stored.parents == declaration.parents)
    #expect(stored.tags == declaration.tags)
  }

  @Test func everyRowOfTheSystemTableParses() {
    let lines = SystemTypeTable.packedRows.split(separator: "\n").filter { !$0.isEmpty }
    #expect(SystemTypeTable.count == lines.count)
    #expect(SystemTypeTable.count > 800)
    var imported = 0
    for index in 0..<SystemTypeTable.count {
      guard let entry = SystemTypeTable.entry(at: index) else {
        Issue.record("row \(index) does not parse")
        continue
      }
      // The builder's readers, which make no whole entry, agree with the whole parse.
      let isImported = SystemTypeTable.withRow(index) { $0.column(.declaration, is: "imported") }
      #expect(isImported == (entry.declaration == .imported), "row \(index)")
      if entry.declaration == .imported { imported += 1 }
      #expect(SystemTypeTable.parents(ofRow: index) == entry.conformsTo.map { TypeIdentifier($0) })
      #expect(SystemTypeTable.tags(ofRow: index).map(\.value) == entry.extensions + entry.mimeTypes)
    }
    #expect(imported > 0)
  }

  @Test func aDeclarationThatReplacesASystemRowIsKeptWhole() throws {
    var builder = TypeRegistryBuilder()
    // An exported declaration of a system type is refused (the system's is kept), so the
    // row stays a row; an identifier the table does not have is held as a declaration.
    builder.add(declaration(.exported, extensions: ["note"]))
    builder.add(
      TypeDeclaration(
        identifier: "com.adobe.pdf", kind: .exported, conformsTo: [.data],
        tags: [TypeTag(.filenameExtension, "notpdf")], sourceName: "Info.plist"))
    let registry = builder.build()
    let pdf = try #require(registry.indexByIdentifier["com.adobe.pdf"])
    #expect(registry.nodes[Int(pdf)].storedDeclaration?.isSystemRow == true)
    #expect(registry.identifier(forFilenameExtension: "notpdf") == nil)
    let note = try #require(registry.indexByIdentifier["com.example.notebook"])
    let stored = try #require(registry.nodes[Int(note)].storedDeclaration)
    #expect(!stored.isSystemRow)
    #expect(stored.kind == .exported)
    #expect(stored.sourceName == "Info.plist")
    #expect(registry.identifier(forFilenameExtension: "note") == "com.example.notebook")
  }
}
