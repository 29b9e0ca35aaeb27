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
      registry.identify(fileName: "A.examplenotebook", kind: .directory) == "com.example.notebook")
    #expect(
      registry.identify(fileName: "A.EXAMPLENOTEBOOK", kind: .directory) == "com.example.notebook")
    #expect(registry.identify(fileName: "pages", kind: .directory) == .folder)
    #expect(registry.identify(fileName: "notes.txt", kind: .directory) == .folder)
    #expect(registry.identify(fileName: "Old.rtfd", kind: .directory) == "com.apple.rtfd")
    #expect(
      registry.identify(fileName: "a.examplenotebook", kind: .regularFile)
        == .dynamic(tagClass: .filenameExtension, tag: "examplenotebook"))
    #expect(
      registry.identify(fileName: "backup.2024.tar.gz", kind: .regularFile) == .gzipTarArchive)
    #expect(registry.identify(fileName: "file.gz", kind: .regularFile) == .gzip)
    #expect(registry.identify(fileName: "README", kind: .regularFile) == .data)
    #expect(registry.identify(fileName: ".bashrc", kind: .regularFile) == .data)
    #expect(registry.identify(fileName: "name.", kind: .regularFile) == .data)
    #expect(registry.identify(fileName: "link.txt", kind: .symbolicLink) == .symlink)
    #expect(registry.identify(fileName: "x.unknownext", kind: .regularFile).isDynamic)
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
      #expect(registry.identify(path: package.path) == "com.example.notebook")
      #expect(registry.identify(path: package.path + "/") == "com.example.notebook")
      #expect(registry.identify(path: package.appendingPathComponent("pages").path) == .folder)
      #expect(registry.identify(path: text.path) == .plainText)
      #expect(registry.identify(path: link.path) == .symlink)
      #expect(TypeRegistry.system.identify(path: package.path) == .folder)
      #expect(TypeRegistry.itemKind(atPath: folder.appendingPathComponent("missing").path) == nil)
    }
  }
}
