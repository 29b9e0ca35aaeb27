import FolioSystem
import Testing
import UniformTypes

@Suite struct TypeRegistryTests {
  private func declaration(
    _ identifier: TypeIdentifier, _ kind: TypeDeclaration.Kind, parents: [TypeIdentifier],
    extensions: [String] = [], mimeTypes: [String] = [], source: String = "a.plist"
  ) -> TypeDeclaration {
    TypeDeclaration(
      identifier: identifier, kind: kind, conformsTo: parents,
      tags: extensions.map { TypeTag(.filenameExtension, $0) }
        + mimeTypes.map { TypeTag(.mimeType, $0) },
      location: SourceLocation(file: source, line: 1), sourceName: source)
  }

  @Test func conformanceIsReflexiveTransitiveAndCaseInsensitive() {
    let registry = TypeRegistry.system
    #expect(registry.conforms(UTType.utf8PlainText, to: .utf8PlainText))
    #expect(registry.conforms(UTType.utf8PlainText, to: .text))
    #expect(registry.conforms(UTType.utf8PlainText, to: .data))
    #expect(registry.conforms(UTType.utf8PlainText, to: .item))
    #expect(registry.conforms("PUBLIC.UTF8-PLAIN-TEXT", to: "public.Text"))
    #expect(!registry.conforms(UTType.text, to: .utf8PlainText))
    #expect(!registry.conforms("com.example.unknown", to: .data))
    #expect(registry.conforms("com.example.unknown", to: "com.example.unknown"))
  }

  @Test func cyclesTerminateAndEveryMemberConformsToEveryOther() {
    var builder = TypeRegistryBuilder()
    builder.add(declaration("com.example.a", .exported, parents: ["com.example.b"]))
    builder.add(declaration("com.example.b", .exported, parents: ["com.example.c", .data]))
    builder.add(declaration("com.example.c", .exported, parents: ["com.example.a"]))
    builder.add(declaration("com.example.self", .exported, parents: ["com.example.self"]))
    let registry = builder.build()
    #expect(registry.conforms("com.example.a", to: "com.example.c"))
    #expect(registry.conforms("com.example.c", to: "com.example.b"))
    #expect(registry.conforms("com.example.c", to: .item))
    #expect(registry.isOnCycle("com.example.a"))
    #expect(registry.isOnCycle("com.example.self"))
    #expect(!registry.isOnCycle(.plainText))
    #expect(registry.supertypes(of: "com.example.a").first == "com.example.b")
    #expect(!registry.supertypes(of: "com.example.a").contains("com.example.a"))
  }

  @Test func supertypesAreDepthFirstInDeclaredOrder() {
    let supertypes = TypeRegistry.system.supertypes(of: UTType.xmlPropertyList)
    #expect(supertypes == [.xml, .text, .data, .item, .content, .propertyList])
  }

  @Test func undeclaredParentsAreNodesSoConformanceToThemHolds() {
    let registry = TypeRegistry(loading: [
      DeclarationSource(
        name: "a.plist",
        exported: [
          declaration("com.example.torrent-ish", .exported, parents: ["com.bittorrent.torrent"])
        ])
    ])
    #expect(registry.conforms("com.example.torrent-ish", to: "com.bittorrent.torrent"))
    #expect(registry.undeclaredIdentifiers == ["com.bittorrent.torrent"])
    #expect(registry.declaration(for: "com.bittorrent.torrent") == nil)
  }

  @Test func preferredTagsAreTheFirstDeclaredOrInheritedFromSupertypes() {
    let registry = TypeRegistry.system
    #expect(registry.preferredFilenameExtension(for: UTType.jpeg) == "jpeg")
    #expect(registry.preferredFilenameExtension(for: UTType.utf8PlainText) == "txt")
    #expect(registry.preferredMIMEType(for: UTType.json) == "application/json")
    #expect(registry.preferredMIMEType(for: UTType.propertyList) == nil)
    #expect(registry.preferredFilenameExtension(for: .gzipTarArchive) == "tgz")
    #expect(registry.preferredFilenameExtension(for: UTType.data) == nil)
  }

  @Test func mimeLookupIgnoresCaseAndFallsBackToTheBareType() {
    let registry = TypeRegistry.system
    #expect(registry.identifier(forMIMEType: "Application/JSON") == .json)
    #expect(registry.identifier(forMIMEType: "text/plain; charset=utf-8") == .utf8PlainText)
    #expect(registry.identifier(forMIMEType: "text/plain; charset=iso-8859-1") == .plainText)
    #expect(registry.identifier(forMIMEType: "application/x-nothing") == nil)
  }

  @Test func userDeclarationsRankBeforeSystemTypesExportedBeforeImported() {
    let source = DeclarationSource(
      name: "a.plist",
      exported: [
        declaration("com.example.markdown", .exported, parents: [.plainText], extensions: ["md"])
      ],
      imported: [
        declaration("org.other.markdown", .imported, parents: [.plainText], extensions: ["MD"])
      ])
    let registry = TypeRegistry(loading: [source])
    #expect(
      registry.identifiers(forFilenameExtension: "md")
        == ["com.example.markdown", "org.other.markdown", .markdown])
    #expect(registry.identifier(forFilenameExtension: ".Md") == "com.example.markdown")
  }

  @Test func exportedDeclarationWinsOverImportedFromAnySource() {
    var builder = TypeRegistryBuilder()
    builder.add(
      DeclarationSource(
        name: "first.plist",
        imported: [
          declaration(
            "com.example.doc", .imported, parents: [.data], extensions: ["old"],
            source: "first.plist")
        ]))
    builder.add(
      DeclarationSource(
        name: "second.plist",
        exported: [
          declaration(
            "com.example.doc", .exported, parents: [.package], extensions: ["exdoc"],
            source: "second.plist")
        ]))
    let registry = builder.build()
    #expect(registry.declaration(for: "com.example.doc")?.kind == .exported)
    #expect(registry.conforms("com.example.doc", to: .package))
    #expect(registry.identifier(forFilenameExtension: "exdoc") == "com.example.doc")
    #expect(registry.identifier(forFilenameExtension: "old") == nil)
    #expect(builder.diagnostics.isEmpty)
  }

  @Test func laterConflictingSourceIsADiagnosticNotAnOverride() {
    var builder = TypeRegistryBuilder()
    builder.add(
      DeclarationSource(
        name: "first.plist",
        exported: [
          declaration(
            "com.example.doc", .exported, parents: [.data], extensions: ["doc1"],
            source: "first.plist")
        ]))
    builder.add(
      DeclarationSource(
        name: "second.plist",
        exported: [
          declaration(
            "com.example.doc", .exported, parents: [.data], extensions: ["doc2"],
            source: "second.plist")
        ]))
    builder.add(
      DeclarationSource(
        name: "third.plist",
        imported: [declaration(.plainText, .imported, parents: [.data], source: "third.plist")]))
    let registry = builder.build()
    #expect(registry.declaration(for: "com.example.doc")?.sourceName == "first.plist")
    #expect(
      builder.diagnostics.map(\.code) == ["conflicting-declaration", "redeclared-system-type"])
    #expect(builder.diagnostics.first?.location?.file == "second.plist")
    #expect(registry.parents(of: UTType.plainText) == [.text])
  }

  @Test func resolveAcceptsIdentifiersExtensionsAndMIMETypes() {
    let registry = TypeRegistry.system
    #expect(registry.identifier(resolving: "public.json") == .json)
    #expect(registry.identifier(resolving: "PUBLIC.JSON")?.rawValue == "public.json")
    #expect(registry.identifier(resolving: "json") == .json)
    #expect(registry.identifier(resolving: ".tar.gz") == .gzipTarArchive)
    #expect(registry.identifier(resolving: "application/zip") == .zipArchive)
    #expect(registry.identifier(resolving: "dyn.ah62d4rv4ge8043a") == "dyn.ah62d4rv4ge8043a")
    #expect(registry.identifier(resolving: "com.example.nothing") == nil)
    #expect(registry.identifier(resolving: "  ") == nil)
  }

  @Test func dynamicIdentifiersConformToTheirEncodedParent() {
    let registry = TypeRegistry.system
    let dynamic = TypeIdentifier.dynamic(tagClass: .filenameExtension, tag: "qqq")
    #expect(registry.conforms(dynamic, to: .data))
    #expect(registry.conforms(dynamic, to: .item))
    #expect(!registry.conforms(dynamic, to: .text))
    #expect(registry.supertypes(of: dynamic) == [.data, .item])
    #expect(registry.preferredFilenameExtension(for: dynamic) == "qqq")
  }

  @Test func conformingTypesListIncludesTheTypeAndItsDescendants() {
    let registry = TypeRegistry.system
    let archives = registry.types(conformingTo: TypeIdentifier.gzip)
    #expect(archives == [.gzip, .gzipTarArchive])
  }
}
