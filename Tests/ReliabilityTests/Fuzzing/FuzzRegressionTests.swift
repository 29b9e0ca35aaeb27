import FolioTestSupport
import Foundation
import Testing

/// Every input the fuzz targets ever broke Folio with (`Fixtures/fuzz/TARGET/`), and their
/// seeds (`Fuzz/TARGET/Seeds/`), replayed through the built `folio`: each must end in success
/// or a reported refusal, never a crash, and an expansion must write nothing outside its
/// destination.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz")

  static func inputs(_ target: String) -> [URL] {
    let folders = [
      fixtures.appendingPathComponent(target),
      ProjectPaths.root.appendingPathComponent("Fuzz/\(target)/Seeds"),
    ]
    return folders.flatMap {
      (try? FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil)) ?? []
    }.sorted { $0.path < $1.path }
  }

  @Test func everyTargetHasInputs() {
    #expect(!Self.inputs("expand").isEmpty)
    #expect(!Self.inputs("validate").isEmpty)
  }

  @Test(arguments: inputs("expand"))
  func expandInputEndsCleanly(_ input: URL) async throws {
    try await withTemporaryDirectory("fuzz-expand") { folder in
      let destination = folder.appendingPathComponent("inner/Restored.examplenotebook")
      try FileManager.default.createDirectory(
        at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
      let result = try ChildProcess.run(
        FolioBinary.url.path,
        ["expand", input.path, "-o", destination.path, "--quiet", "--max-bytes", "64M"])
      #expect(result.signal == nil, "\(input.lastPathComponent) crashed folio")
      #expect(result.status == 0 || result.status == 1, "\(input.lastPathComponent)")
      if result.status == 1 {
        #expect(!result.errorText.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
      }
      let outside = try FileManager.default.contentsOfDirectory(
        atPath: destination.deletingLastPathComponent().path
      ).filter { $0 != destination.lastPathComponent && !isLockFile($0) }
      #expect(outside.isEmpty, "\(input.lastPathComponent) left \(outside)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["inner"])
    }
  }

  @Test(arguments: inputs("validate"))
  func validateInputEndsCleanly(_ input: URL) throws {
    for schema in [[], ["--schema"]] {
      let result = try ChildProcess.run(
        FolioBinary.url.path, ["validate", "--format", "json"] + schema + [input.path])
      #expect(result.signal == nil, "\(input.lastPathComponent) \(schema) crashed folio")
      #expect(result.status == 0 || result.status == 1, "\(input.lastPathComponent) \(schema)")
      #expect(
        (try? JSONSerialization.jsonObject(with: result.standardOutput)) != nil,
        "\(input.lastPathComponent): the JSON report does not parse")
    }
  }
}
