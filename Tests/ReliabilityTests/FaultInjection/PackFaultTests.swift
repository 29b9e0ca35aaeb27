import FolioTestSupport
import Foundation
import Testing

/// `folio pack` under failing system calls: a full disk, I/O errors, interrupted and short
/// reads and writes, at sampled points across the whole run.
@Suite("Faults while packing", .serialized)
struct PackFaultTests {
  /// Packs `Fault.examplenotebook` over an existing older archive of the same name.
  static func scenario(format: String) -> FaultScenario {
    FaultScenario(
      name: "pack \(format)",
      prepare: { folder in
        let package = try NotebookFixture.make(
          at: folder.appendingPathComponent("Fault.examplenotebook"))
        let output = folder.appendingPathComponent("Fault.\(format)")
        try Data("an older archive the user wants kept until the new one is whole\n".utf8)
          .write(to: output)
        // tar.gz runs reproducibly, so a retried fault must give the very same bytes.
        let reproducible = format == "zip" ? [] : ["--reproducible"]
        return (
          ["pack", package.path, "-o", output.path, "--force", "--quiet"] + reproducible, output
        )
      },
      verify: { output in
        try ArchiveOracle.differences(
          archive: output,
          package: output.deletingLastPathComponent()
            .appendingPathComponent("Fault.examplenotebook"))
      }, isDeterministic: format != "zip")
  }

  @Test(arguments: ["zip", "tar.gz"])
  func everyFaultLeavesTheOutputAsItWasAndRetriesInterruptions(_ format: String) throws {
    let tally = try runFaultMatrix(Self.scenario(format: format))
    print(
      "reliability: pack \(format): \(tally.injected) faults (\(tally.afterCommit) after the commit), \(tally.retried) retried"
    )
    #expect(tally.injected > 0)
  }
}
