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
        return (["pack", source.path, "-o", output.path, "--force", "--quiet"], output)
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

  @Test func expandKilledLeavesTheOldTreeOrAWholeNewOne() throws {
    let source = try BenchmarkCorpus.small().appendingPathComponent("pages.examplenotebook")
    let scenario = KillScenario(
      name: "expand --force",
      prepare: { folder in
        let archive = folder.appendingPathComponent("pages.zip")
        try ArchiveOracle.make(archive, of: source)
        let destination = folder.appendingPathComponent("pages.examplenotebook")
        return (
          ["expand", archive.path, "-o", destination.path, "--force", "--quiet"], destination
        )
      },
      reset: { folder in
        let destination = folder.appendingPathComponent("pages.examplenotebook")
        removeTree(destination)
        try NotebookFixture.make(at: destination, variant: 1, attachmentBytes: 4096)
      },
      verify: { destination in
        TreeSnapshot.take(destination).contentDifferences(from: TreeSnapshot.take(source))
      })
    let tally = try runKillMatrix(scenario)
    print(
      "reliability: kill expand: \(tally.kills) kills, \(tally.completedBeforeKill) finished first, \(tally.leftovers) temporaries left"
    )
  }

  @Test func exportKilledLeavesTheOldOutputOrAWholeNewOne() throws {
    let source = try BenchmarkCorpus.small().appendingPathComponent("pages.examplenotebook")
    let declarations = ["--declarations", ProjectPaths.sampleInfoPlist.path]
    let scenario = KillScenario(
      name: "export txt",
      prepare: { folder in
        let reference = folder.appendingPathComponent("reference.txt")
        let made = try FolioBinary.run(
          ["export", source.path, "--to", "txt", "-o", reference.path, "--quiet"] + declarations)
        guard made.status == 0 else { throw ShimFailure("reference export: \(made.errorText)") }
        let output = folder.appendingPathComponent("pages.txt")
        return (
          ["export", source.path, "--to", "txt", "-o", output.path, "--force", "--quiet"]
            + declarations, output
        )
      },
      reset: { folder in
        try Self.olderArchive.write(to: folder.appendingPathComponent("pages.txt"))
      },
      verify: { output in
        let reference = output.deletingLastPathComponent().appendingPathComponent("reference.txt")
        return try Data(contentsOf: output) == Data(contentsOf: reference)
          ? [] : ["pages.txt differs from a clean export"]
      })
    let tally = try runKillMatrix(scenario)
    print(
      "reliability: kill export: \(tally.kills) kills, \(tally.completedBeforeKill) finished first, \(tally.leftovers) temporaries left"
    )
  }
}
