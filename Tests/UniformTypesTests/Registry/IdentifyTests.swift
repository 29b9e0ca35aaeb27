import FolioTestSupport
import Foundation
import Testing
import UniformTypes

@Suite struct IdentifyTests {
  private let notebook = TypeDeclaration(
    identifier: "com.example.notebook", kind: .exported,
    conformsTo: [.package, .compositeContent],
    tags: [TypeTag(.filenameExtension, "examplenotebook")],
    sourceName: "Info.plist")

  @Test func namesFollowTheIssueRules() {
    let registry = TypeRegistry(loading: [
      DeclarationSource(name: "Info.plist", exported: [notebook])
    ])
    #expect(
      registry.identifier(forFileNamed: "A.examplenotebook", kind: .directory)
        == "com.example.notebook")
    #expect(
      registry.identifier(forFileNamed: "A.EXAMPLENOTEBOOK", kind: .directory)
        == "com.example.notebook")
    #expect(registry.identifier(forFileNamed: "pages", kind: .directory) == .folder)
    #expect(registry.identifier(forFileNamed: "notes.txt", kind: .directory) == .folder)
    #expect(registry.identifier(forFileNamed: "Old.rtfd", kind: .directory) == "com.apple.rtfd")
    #expect(
      registry.identifier(forFileNamed: "a.examplenotebook", kind: .regularFile)
        == .dynamic(tagClass: .filenameExtension, tag: "examplenotebook"))
    #expect(
      registry.identifier(forFileNamed: "backup.2024.tar.gz", kind: .regularFile) == .gzipTarArchive
    )
    #expect(registry.identifier(forFileNamed: "file.gz", kind: .regularFile) == .gzip)
    #expect(registry.identifier(forFileNamed: "README", kind: .regularFile) == .data)
    #expect(registry.identifier(forFileNamed: ".bashrc", kind: .regularFile) == .data)
    #expect(registry.identifier(forFileNamed: "name.", kind: .regularFile) == .data)
    #expect(registry.identifier(forFileNamed: "link.txt", kind: .symbolicLink) == .symlink)
    #expect(registry.identifier(forFileNamed: "x.unknownext", kind: .regularFile).isDynamic)
  }

  @Test func pathsAreExaminedWithoutFollowingLinks() async throws {
    try await withTemporaryDirectory("identify") { folder in
      let manager = FileManager.default
      let package = folder.appendingPathComponent("N.examplenotebook")
      try manager.createDirectory(
        at: package.appendingPathComponent("pages"), withIntermediateDirectories: true)
      let text = folder.appendingPathComponent("a.txt")
      try Data("hi".utf8).write(to: text)
      let link = folder.appendingPathComponent("b.txt")
      try manager.createSymbolicLink(at: link, withDestinationURL: text)
      let registry = TypeRegistry(loading: [
        DeclarationSource(name: "Info.plist", exported: [notebook])
      ])
      #expect(registry.identifier(forPath: package.path) == "com.example.notebook")
      #expect(registry.identifier(forPath: package.path + "/") == "com.example.notebook")
      #expect(registry.identifier(forPath: package.appendingPathComponent("pages").path) == .folder)
      #expect(registry.identifier(forPath: text.path) == .plainText)
      #expect(registry.identifier(forPath: link.path) == .symlink)
      #expect(TypeRegistry.system.identifier(forPath: package.path) == .folder)
      #expect(TypeRegistry.itemKind(atPath: folder.appendingPathComponent("missing").path) == nil)
    }
  }
}
