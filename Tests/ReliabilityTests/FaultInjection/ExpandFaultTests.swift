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

  /// An update keeps unchanged files by linking the destination's own inodes into the new
  /// tree; a file whose bytes are unchanged but whose mode changed must not have the shared
  /// inode's mode changed before the commit, or a failed update alters the destination.
  @Test func failedUpdateKeepsTheModesOfSharedFiles() async throws {
    try await withTemporaryDirectory("update-modes") { folder in
      let source = try NotebookFixture.make(
        at: folder.appendingPathComponent("source/Fault.examplenotebook"))
      chmod(source.appendingPathComponent("scripts/run.sh").path, 0o644)  // same bytes, new mode
      let archive = folder.appendingPathComponent("Fault.zip")
      try ArchiveOracle.make(archive, of: source)
      let destination = folder.appendingPathComponent("Restored.examplenotebook")
      try NotebookFixture.make(at: destination)
      let arguments = ["expand", archive.path, "-o", destination.path, "--update", "--quiet"]
      let clean = try runFolioUnderShim(arguments, prefix: folder)
      try #require(clean.result.status == 0, "\(clean.result.errorText)")
      // Start again and break the final rename, after unchanged files were adopted.
      removeTree(destination)
      try NotebookFixture.make(at: destination)
      let again = TreeSnapshot.take(destination)
      let renames = clean.log.count(of: ["rename", "renameat"])
      let run = try runFolioUnderShim(
        arguments, prefix: folder,
        fault: Fault(calls: ["rename", "renameat"], occurrence: renames, effect: .error("EIO")))
      #expect(run.log.fired.count == 1)
      #expect(run.result.status == 1, "\(run.result.errorText)")
      let changes = TreeSnapshot.take(destination).differences(from: again)
      #expect(changes == [], "a failed update changed the destination")
    }
  }
}
