import FolioTestSupport
import Foundation
import Testing

/// `folio export` under failing system calls: a notebook to plain text (Exporting's own
/// atomic writer) and to zip (through the packer), each over an existing older output
/// with `--force`.
@Suite("Faults while exporting", .serialized)
struct ExportFaultTests {
  static func scenario(to type: String) -> FaultScenario {
    FaultScenario(
      name: "export \(type)",
      prepare: { folder in
        let package = try NotebookFixture.make(
          at: folder.appendingPathComponent("Fault.examplenotebook"))
        let output = folder.appendingPathComponent("Fault.\(type)")
        try Data("an older export the user wants kept until the new one is whole\n".utf8)
          .write(to: output)
        return (
          [
            "export", package.path, "--to", type, "-o", output.path, "--force", "--quiet",
            "--declarations", ProjectPaths.sampleInfoPlist.path,
          ], output
        )
      },
      verify: { output in
        let package = output.deletingLastPathComponent()
          .appendingPathComponent("Fault.examplenotebook")
        if type == "zip" { return try ArchiveOracle.differences(archive: output, package: package) }
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return text.contains("Fault notebook 0") && text.contains("Page 6, edition 0")
          ? [] : ["\(output.lastPathComponent) is not the notebook's text: \(text.prefix(200))"]
      }, isDeterministic: type != "zip")
  }

  @Test(arguments: ["txt", "zip"])
  func everyFaultLeavesTheOutputAsItWasAndRetriesInterruptions(_ type: String) throws {
    let tally = try runFaultMatrix(Self.scenario(to: type))
    print(
      "reliability: export \(type): \(tally.injected) faults (\(tally.afterCommit) absorbed), \(tally.retried) retried"
    )
    #expect(tally.injected > 0)
  }
}
