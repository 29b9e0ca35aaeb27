public import Foundation

/// The deterministic package corpus of `scripts/bench/make_corpus.py`, built once per test run.
public enum BenchmarkCorpus {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var built: URL?

  /// The folder holding `pages.examplenotebook`, `media.examplenotebook` and
  /// `mixed.examplenotebook` at the small scale, created on first use.
  ///
  /// - Returns: The folder.
  /// - Throws: When the generator fails.
  public static func small() throws -> URL {
    lock.lock()
    defer { lock.unlock() }
    if let built { return built }
    let destination = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("folio-tests/corpus-small-\(getpid())")
    if !FileManager.default.fileExists(
      atPath: destination.appendingPathComponent("mixed.examplenotebook").path)
    {
      try? FileManager.default.removeItem(at: destination)
      try FileManager.default.createDirectory(
        at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
      let script = ProjectPaths.corpusGenerator.path
      let result = try runProcess("python3", [script, destination.path, "--scale", "small"])
      guard result.status == 0 else {
        throw CocoaError(
          .fileWriteUnknown,
          userInfo: [NSLocalizedDescriptionKey: "make_corpus.py failed: \(result.errorText)"])
      }
    }
    built = destination
    return destination
  }
}
