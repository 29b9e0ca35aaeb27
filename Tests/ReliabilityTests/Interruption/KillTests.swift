import FolioTestSupport
import Foundation
import Testing

/// `folio pack`, `expand` and `export` killed with `SIGKILL` at random moments on the
/// benchmark corpus: the destination is as before or complete, never partial; leftovers are
/// recognisable temporaries, and the next run clears them away.
@Suite("Killed mid-run", .serialized)
struct KillTests {
  static let olderArchive = Data("an older archive, kept until a new one is whole\n".utf8)

  @Test func packKilledLeavesTheOldArchiveOrAWholeNewOne() throws {
    let source = try BenchmarkCorpus.small().appendingPathComponent("pages.examplenotebook")
    let scenario = KillScenario(
      name: "pack zip",
      prepare: { folder in
        let output = folder.appendingPathComponent("pages.zip")
        return (["pack", source.path, "-o", output.path, "--quiet"], output)
      },
      reset: { folder in
        try Self.olderArchive.write(to: folder.appendingPathComponent("pages.zip"))
      },
      verify: { output in try ArchiveOracle.differences(archive: output, package: source) })
    let tally = try runKillMatrix(scenario)
    print(
      "reliability: kill pack: \(tally.kills) kills, \(tally.completedBeforeKill) finished first, \(tally.leftovers) temporaries left"
    )
  }
}
