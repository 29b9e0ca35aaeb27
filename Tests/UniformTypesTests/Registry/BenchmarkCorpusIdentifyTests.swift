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
      #expect(registry.identify(path: path) == "com.example.notebook", "\(name)")
      #expect(registry.conforms(registry.identify(path: path), to: .package))
    }
    let pages = corpus.appendingPathComponent("pages.examplenotebook")
    #expect(registry.identify(path: pages.appendingPathComponent("pages").path) == .folder)
    #expect(registry.identify(path: pages.appendingPathComponent("metadata.json").path) == .json)
    let firstPage = try #require(
      try FileManager.default.contentsOfDirectory(
        atPath: pages.appendingPathComponent("pages").path
      )
      .first)
    #expect(
      registry.identify(path: pages.appendingPathComponent("pages/\(firstPage)").path) == .plainText
    )
    #expect(TypeRegistry.system.identify(path: pages.path) == .folder)
  }
}
