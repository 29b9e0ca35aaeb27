import FolioTestSupport
import Foundation
import Testing
import UniformTypes

@Suite struct BenchmarkCorpusIdentifyTests {
  @Test func packagesOfTheBenchmarkCorpusAreNotebooks() throws {
    let corpus = try BenchmarkCorpus.small()
    let (registry, diagnostics) = try TypeRegistry.load(
      declarationFiles: [ProjectPaths.sampleInfoPlist])
    #expect(diagnostics.isEmpty)
    for name in ["pages.examplenotebook", "media.examplenotebook", "mixed.examplenotebook"] {
      let path = corpus.appendingPathComponent(name).path
      #expect(registry.identifier(forPath: path) == "com.example.notebook", "\(name)")
      #expect(registry.conforms(registry.identifier(forPath: path), to: .package))
    }
    let pages = corpus.appendingPathComponent("pages.examplenotebook")
    #expect(registry.identifier(forPath: pages.appendingPathComponent("pages").path) == .folder)
    #expect(
      registry.identifier(forPath: pages.appendingPathComponent("metadata.json").path) == .json)
    let firstPage = try #require(
      try FileManager.default.contentsOfDirectory(
        atPath: pages.appendingPathComponent("pages").path
      )
      .first)
    #expect(
      registry.identifier(forPath: pages.appendingPathComponent("pages/\(firstPage)").path)
        == .plainText
    )
    #expect(TypeRegistry.system.identifier(forPath: pages.path) == .folder)
  }
}
