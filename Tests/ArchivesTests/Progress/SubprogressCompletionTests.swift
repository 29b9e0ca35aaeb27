import FolioTestSupport
import Foundation
import Observation
import ProgressReporting
import Testing

@testable import Archives

/// When `try await` of a call that took a subprogress returns, the share is complete.
///
/// Foundation's `ProgressManager` counts a subprogress's whole share in the parent once the
/// work's manager goes away (https://developer.apple.com/documentation/foundation/progressmanager,
/// proposal SF-0023); Folio's operations end their manager before they return, so a caller
/// reads the parent right after the `await` and finds it done, every time.
@Suite struct SubprogressCompletionTests {
  /// A package of two small files, and a zip of it to expand.
  private static func makePackage(in folder: URL) throws -> URL {
    let package = folder.appendingPathComponent("Drawing.sketchbook")
    try FileManager.default.createDirectory(
      at: package.appendingPathComponent("strokes"), withIntermediateDirectories: true)
    try Data(#"{"version":1}"#.utf8).write(to: package.appendingPathComponent("Info.json"))
    try Data("stroke\n".utf8).write(to: package.appendingPathComponent("strokes/1.json"))
    return package
  }

  @Test func aPackShareIsCompleteWhenThePackReturnsInEveryOneOfAThousandRounds() async throws {
    try await withTemporaryDirectory("pack-share-rounds") { folder in
      let package = try Self.makePackage(in: folder)
      let archive = folder.appendingPathComponent("Drawing.zip")
      var options = PackOptions()
      options.replacePolicy = .replace
      var incomplete = 0
      for _ in 0..<1_000 {
        let root = ProgressManager(totalCount: 2)
        _ = try await Packer.pack(
          package, to: archive, options: options, progress: root.subprogress(assigningCount: 1))
        if root.completedCount != 1 || root.fractionCompleted != 0.5 { incomplete += 1 }
      }
      #expect(incomplete == 0)
    }
  }

  @Test func anExpandShareIsCompleteWhenTheExpandReturnsInEveryOneOfAThousandRounds() async throws {
    try await withTemporaryDirectory("expand-share-rounds") { folder in
      let package = try Self.makePackage(in: folder)
      let archive = folder.appendingPathComponent("Drawing.zip")
      _ = try await Packer.pack(package, to: archive)
      let destination = folder.appendingPathComponent("Expanded.sketchbook")
      var incomplete = 0
      for _ in 0..<1_000 {
        let root = ProgressManager(totalCount: 1)
        _ = try await Expander.expand(
          archive, into: destination, replacePolicy: .replace,
          progress: root.subprogress(assigningCount: 1))
        // The root's observers were told too: the meter finished before the return.
        if !root.isFinished || root.fractionCompleted != 1 || !root.reporter.snapshot.isFinished {
          incomplete += 1
        }
      }
      #expect(incomplete == 0)
    }
  }

  /// A failed or cancelled call leaves the share complete in the parent (as Foundation does
  /// for a manager that goes away unfinished); the thrown error says what went wrong.
  @Test(arguments: ["missing-source", "cancelled"])
  func aFailedOrCancelledPackLeavesItsShareComplete(outcome: String) async throws {
    try await withTemporaryDirectory("pack-share-failed") { folder in
      let package = try Self.makePackage(in: folder)
      let source = outcome == "missing-source" ? folder.appendingPathComponent("absent") : package
      let root = ProgressManager(totalCount: 4)
      let work = Task {
        if outcome == "cancelled" { withUnsafeCurrentTask { $0?.cancel() } }
        return try await Packer.pack(
          source, to: folder.appendingPathComponent("out.zip"),
          progress: root.subprogress(assigningCount: 3))
      }
      let result = await work.result
      #expect(throws: (any Error).self) { try result.get() }
      #expect(root.completedCount == 3)
      #expect(root.fractionCompleted == 0.75)
      #expect(
        !FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.zip").path))
    }
  }

  /// `ProgressManager` is `Observable`, as Foundation's is: tracking the fraction of the
  /// caller's manager fires when the work under it moves
  /// (https://developer.apple.com/documentation/observation/withobservationtracking(_:onchange:)).
  @Test func trackingTheFractionFiresBeforeThePackReturnsInEveryOneOfAThousandRounds()
    async throws
  {
    try await withTemporaryDirectory("pack-observed") { folder in
      let package = try Self.makePackage(in: folder)
      let archive = folder.appendingPathComponent("Drawing.zip")
      var options = PackOptions()
      options.replacePolicy = .replace
      var unobserved = 0
      for _ in 0..<1_000 {
        let root = ProgressManager(totalCount: 1)
        let changes = ChangeCounter()
        let before = withObservationTracking {
          root.fractionCompleted
        } onChange: {
          changes.fire()
        }
        _ = try await Packer.pack(
          package, to: archive, options: options, progress: root.subprogress(assigningCount: 1))
        if before != 0 || changes.value != 1 || root.fractionCompleted != 1 { unobserved += 1 }
      }
      #expect(unobserved == 0)
    }
  }
}
