import FolioTestSupport
import Foundation
import Testing

/// Eight `folio` processes on one package at once.
///
/// Expansions (`--update`) of two different versions, packs and exports. The package locks serialise them; each ends in success or a
/// clear lock-timeout error, and every result equals one whole version, never a mixture.
@Suite("Concurrent processes on one package", .serialized)
struct ConcurrentWriterTests {
  private struct Job {
    var arguments: [String]
    var output: URL?
  }

  private func versions(in folder: URL) throws -> [TreeSnapshot] {
    try (0..<3).map { variant in
      let package = try NotebookFixture.make(
        at: folder.appendingPathComponent("v\(variant)/Shared.examplenotebook"),
        variant: variant)
      if variant > 0 {
        try ArchiveOracle.make(folder.appendingPathComponent("v\(variant).zip"), of: package)
      }
      return TreeSnapshot.take(package)
    }
  }

  private func matchesAVersion(_ tree: TreeSnapshot, _ versions: [TreeSnapshot]) -> Bool {
    versions.contains { tree.contentDifferences(from: $0).isEmpty }
  }

  @Test(arguments: ["60", "0"])
  func locksSerialiseEightProcesses(_ lockTimeout: String) async throws {
    try await withTemporaryDirectory("concurrent") { folder in
      let versions = try versions(in: folder)
      let package = folder.appendingPathComponent("Shared.examplenotebook")
      try NotebookFixture.make(at: package, variant: 0)

      var jobs: [Job] = []
      for index in 0..<3 {
        jobs.append(
          Job(
            arguments: [
              "expand", folder.appendingPathComponent("v\(index % 2 + 1).zip").path, "-o",
              package.path, "--update", "--lock-timeout", lockTimeout, "--quiet",
            ]))
      }
      for index in 0..<3 {
        let output = folder.appendingPathComponent("packed-\(index).zip")
        jobs.append(
          Job(
            arguments: [
              "pack", package.path, "-o", output.path, "--lock-timeout", lockTimeout, "--quiet",
            ],
            output: output))
      }
      for index in 0..<2 {
        let output = folder.appendingPathComponent("exported-\(index).zip")
        jobs.append(
          Job(
            arguments: [
              "export", package.path, "--to", "zip", "-o", output.path, "--quiet",
              "--declarations", ProjectPaths.sampleInfoPlist.path,
            ],
            output: output))
      }
      jobs.shuffle()

      let children = try jobs.map { try ChildProcess(FolioBinary.url.path, $0.arguments) }
      let results = children.map { $0.wait() }

      var succeeded = 0
      for (job, result) in zip(jobs, results) {
        let command = job.arguments.prefix(2).joined(separator: " ")
        if result.status == 0 {
          succeeded += 1
        } else {
          #expect(result.status == 1, "\(command): \(result.errorText)")
          #expect(
            result.errorText.lowercased().contains("lock"),
            "\(command) failed without a lock-timeout error: \(result.errorText)")
        }
        if let output = job.output {
          if result.status == 0 {
            let scratch = try makeTemporaryDirectory("concurrent-out")
            defer { removeTree(scratch) }
            let extract = try runProcess("bsdtar", ["-xpf", output.path, "-C", scratch.path])
            #expect(extract.status == 0, "\(command): \(extract.errorText)")
            let tree = TreeSnapshot.take(scratch.appendingPathComponent(package.lastPathComponent))
            #expect(
              matchesAVersion(tree, versions), "\(command) wrote a mixture of versions")
          } else {
            #expect(!FileManager.default.fileExists(atPath: output.path))
          }
        }
      }
      let refusal = results.first { $0.status == 1 }?.errorText ?? "none"
      print(
        "reliability: concurrency, lock timeout \(lockTimeout) s: \(succeeded) of \(jobs.count) succeeded; a refusal: \(refusal.prefix(160))"
      )
      if lockTimeout != "0" {
        #expect(succeeded == jobs.count, "with a long timeout every process must succeed")
      }
      #expect(succeeded > 0)
      #expect(
        matchesAVersion(TreeSnapshot.take(package), versions),
        "the package is not one whole version")
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter(isFolioTemporary)
      #expect(leftovers.isEmpty, "temporaries left: \(leftovers)")
    }
  }
}
