import FolioTestSupport
import Foundation
import Testing

/// `folio expand` (fresh, `--force`, `--update`) under failing system calls.
@Suite("Faults while expanding", .serialized)
struct ExpandFaultTests {
  /// How the destination looks before the expansion.
  enum Mode: String, CaseIterable, Sendable {
    case fresh, force, update
  }

  /// Expands a `bsdtar`-made zip of variant 0 into `Restored.examplenotebook`, which is
  /// absent (fresh) or holds variant 1 (`--force`, `--update`).
  static func scenario(_ mode: Mode) -> FaultScenario {
    FaultScenario(
      name: "expand \(mode.rawValue)",
      prepare: { folder in
        let sources = folder.appendingPathComponent("source")
        let package = try NotebookFixture.make(
          at: sources.appendingPathComponent("Fault.examplenotebook"))
        let archive = folder.appendingPathComponent("Fault.zip")
        try ArchiveOracle.make(archive, of: package)
        let destination = folder.appendingPathComponent("Restored.examplenotebook")
        var arguments = ["expand", archive.path, "-o", destination.path, "--quiet"]
        if mode != .fresh {
          try NotebookFixture.make(at: destination, variant: 1)
          arguments.append("--\(mode.rawValue)")
        }
        return (arguments, destination)
      },
      verify: { destination in
        let source = destination.deletingLastPathComponent()
          .appendingPathComponent("source/Fault.examplenotebook")
        return TreeSnapshot.take(destination).contentDifferences(from: TreeSnapshot.take(source))
      })
  }

  @Test(arguments: Mode.allCases)
  func everyFaultLeavesTheDestinationAsItWasAndRetriesInterruptions(_ mode: Mode) throws {
    let tally = try runFaultMatrix(Self.scenario(mode))
    print(
      "reliability: expand \(mode): \(tally.injected) faults (\(tally.afterCommit) after the commit), \(tally.retried) retried"
    )
    #expect(tally.injected > 0)
  }
}
