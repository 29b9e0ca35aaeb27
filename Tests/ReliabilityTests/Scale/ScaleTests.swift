import FolioTestSupport
import Foundation
import Testing

/// Packages at the edges of scale.
///
/// Very many files, very deep trees, very long paths, a very large file. Folio packs and expands them in flat memory, or refuses them with an
/// error that names the limit. The 100,000-file and 5 GiB cases take minutes and disk, so
/// they run only with `FOLIO_SCALE_TESTS=1` (`scripts/test.sh` does not set it).
@Suite("Scale", .serialized)
struct ScaleTests {
  static let heavyEnabled = ProcessInfo.processInfo.environment["FOLIO_SCALE_TESTS"] == "1"

  /// Whether a failed run's message names a limit the user can understand.
  private func isLimitError(_ result: ChildResult) -> Bool {
    let text = result.errorText.lowercased()
    return result.status == 1
      && ["limit", "too long", "too deep", "too many", "--max"].contains { text.contains($0) }
  }

  /// `find` listing (path, kind, size, mode) of a tree, which works past `PATH_MAX`.
  private func listing(_ folder: URL) throws -> String {
    let result = try runProcess(
      "sh", ["-c", "cd \"$1\" && find . -printf '%P %y %s %m\\n' | sort", "sh", folder.path])
    return result.outputText
  }

  private func report(_ what: String, _ result: ChildResult, seconds: Double) {
    let message = result.errorText.split(separator: "\n").first.map { ": \($0.prefix(300))" } ?? ""
    print(
      "reliability: scale \(what): exit \(result.status.map(String.init) ?? "signal"), peak RSS \(result.peakMemoryKiB / 1024) MiB, \(String(format: "%.1f", seconds)) s\(message)"
    )
  }

  private func timed(_ arguments: [String]) throws -> (ChildResult, Double) {
    let start = Date()
    let result = try ChildProcess.run(FolioBinary.url.path, arguments)
    return (result, Date().timeIntervalSince(start))
  }

  /// Packs and expands a tree, checking both succeed with equal listings or refuse with a
  /// limit error; returns the two results.
  @discardableResult
  private func roundTrip(
    _ package: URL, in folder: URL, format: String, what: String, extra: [String] = []
  ) throws -> (ChildResult, ChildResult?) {
    let run = UUID().uuidString.prefix(8)
    let archive = folder.appendingPathComponent("out-\(run).\(format)")
    let (packed, packSeconds) = try timed(["pack", package.path, "-o", archive.path, "--quiet"])
    report("\(what) pack", packed, seconds: packSeconds)
    guard packed.status == 0 else {
      #expect(
        isLimitError(packed), "\(what): pack failed without a limit error: \(packed.errorText)")
      return (packed, nil)
    }
    let restored = folder.appendingPathComponent("restored-\(run)")
    let (expanded, expandSeconds) = try timed(
      ["expand", archive.path, "-o", restored.path, "--quiet"] + extra)
    report("\(what) expand", expanded, seconds: expandSeconds)
    if expanded.status == 0 {
      #expect(try listing(restored) == listing(package), "\(what): trees differ")
    } else {
      #expect(
        isLimitError(expanded),
        "\(what): expand failed without a limit error: \(expanded.errorText)")
      #expect(!FileManager.default.fileExists(atPath: restored.path))
    }
    return (packed, expanded)
  }

  @Test func treeFifteenHundredLevelsDeep() async throws {
    try await withTemporaryDirectory("scale-deep") { folder in
      let package = folder.appendingPathComponent("Deep.examplenotebook")
      var current = package
      for _ in 0..<1_500 { current.appendPathComponent("d") }
      try FileManager.default.createDirectory(at: current, withIntermediateDirectories: true)
      try Data("at the bottom\n".utf8).write(to: current.appendingPathComponent("leaf.txt"))
      try roundTrip(package, in: folder, format: "zip", what: "1,500 levels")
      try roundTrip(package, in: folder, format: "tar", what: "1,500 levels")
    }
  }

  @Test func treeTenThousandLevelsDeepEndsInAnErrorNotACrash() async throws {
    // Deeper than a walk that recursed once a folder could go on a worker thread's stack
    // (it crashed at 8,000 levels), and deeper than PATH_MAX: packing it must succeed or
    // refuse with a limit error, never die of a signal.
    try await withTemporaryDirectory("scale-deeper") { folder in
      let package = folder.appendingPathComponent("Deeper.examplenotebook")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
      let descriptor = try openFolderChain(
        below: package.path, names: repeatElement("d", count: 10_000))
      close(openat(descriptor, "leaf.txt", O_WRONLY | O_CREAT, 0o644))
      close(descriptor)
      // `rm` needs no descriptor a level; the test folder's removal holds one each.
      defer { _ = try? runProcess("rm", ["-rf", package.path]) }
      let (packed, _) = try roundTrip(package, in: folder, format: "tar", what: "10,000 levels")
      #expect(packed.status != nil, "pack died of signal \(packed.signal.map(String.init) ?? "?")")
    }
  }

  @Test func pathsOf4096Bytes() async throws {
    try await withTemporaryDirectory("scale-long") { folder in
      let package = folder.appendingPathComponent("Long.examplenotebook")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
      // 16 components of 250 bytes plus a leaf: a 4,096-byte path inside the package, which
      // only *at() calls can reach once the folder's own path is in front of it.
      let descriptor = try openFolderChain(
        below: package.path,
        names: (0..<16).map {
          String(repeating: Character(UnicodeScalar(UInt8(97 + $0))), count: 250)
        })
      let leaf = String(repeating: "z", count: 4_096 - 16 * 251)
      let file = openat(descriptor, leaf, O_WRONLY | O_CREAT, 0o644)
      try #require(file >= 0)
      _ = "long way down\n".withCString { write(file, $0, 14) }
      close(file)
      close(descriptor)
      try roundTrip(package, in: folder, format: "tar", what: "4,096-byte paths")
      try roundTrip(package, in: folder, format: "zip", what: "4,096-byte paths")
    }
  }

  @Test(.enabled(if: heavyEnabled, "set FOLIO_SCALE_TESTS=1 to run"))
  func hundredThousandFiles() async throws {
    try await withTemporaryDirectory("scale-many") { folder in
      let package = folder.appendingPathComponent("Many.examplenotebook")
      let script = """
        import os, sys
        root = sys.argv[1]
        for d in range(100):
            folder = os.path.join(root, "pages", f"{d:03}")
            os.makedirs(folder)
            for f in range(1000):
                with open(os.path.join(folder, f"{f:04}.txt"), "w") as out:
                    out.write(f"page {d}-{f}\\n")
        """
      let made = try runProcess("python3", ["-c", script, package.path])
      try #require(made.status == 0, "\(made.errorText)")
      let (packed, expanded) = try roundTrip(
        package, in: folder, format: "zip", what: "100,000 files")
      #expect(packed.status == 0)
      #expect(expanded?.status == 0)
      #expect(packed.peakMemoryKiB < 256 * 1024, "pack peak \(packed.peakMemoryKiB) KiB")
      if let expanded {
        #expect(expanded.peakMemoryKiB < 256 * 1024, "expand peak \(expanded.peakMemoryKiB) KiB")
      }
    }
  }

  /// Free bytes in the temporary folder's file system, where the scale tests write.
  static var temporaryFreeBytes: Int64 {
    var space = statvfs()
    guard statvfs(NSTemporaryDirectory(), &space) == 0 else { return 0 }
    return Int64(space.f_bavail) * Int64(space.f_frsize)
  }

  @Test(
    .enabled(if: heavyEnabled, "set FOLIO_SCALE_TESTS=1 to run"),
    .enabled(if: temporaryFreeBytes >= 12 << 30, "needs 12 GiB free in the temporary folder"))
  func fiveGibibyteFile() async throws {
    try await withTemporaryDirectory("scale-large") { folder in
      let package = folder.appendingPathComponent("Large.examplenotebook")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
      let large = package.appendingPathComponent("large.bin")
      // Real blocks (not sparse): a random mebibyte written 5,120 times.
      let made = try runProcess(
        "sh",
        [
          "-c",
          "head -c 1048576 /dev/urandom > \"$1.block\" && for i in $(seq 5120); do cat \"$1.block\"; done > \"$1\" && rm \"$1.block\"",
          "sh", large.path,
        ])
      try #require(made.status == 0, "\(made.errorText)")
      let sum = try runProcess("cksum", [large.path]).outputText.split(separator: " ").first
      let archive = folder.appendingPathComponent("Large.zip")
      let (packed, packSeconds) = try timed(["pack", package.path, "-o", archive.path, "--quiet"])
      report("5 GiB pack", packed, seconds: packSeconds)
      try #require(packed.status == 0, "\(packed.errorText)")
      try FileManager.default.removeItem(at: large)  // stay within 12 GiB
      let restored = folder.appendingPathComponent("restored")
      let (expanded, expandSeconds) = try timed(
        ["expand", archive.path, "-o", restored.path, "--quiet"])
      report("5 GiB expand", expanded, seconds: expandSeconds)
      try #require(expanded.status == 0, "\(expanded.errorText)")
      let restoredSum = try runProcess(
        "cksum", [restored.appendingPathComponent("large.bin").path]
      ).outputText.split(separator: " ").first
      #expect(restoredSum == sum)
      #expect(packed.peakMemoryKiB < 128 * 1024, "pack peak \(packed.peakMemoryKiB) KiB")
      #expect(expanded.peakMemoryKiB < 128 * 1024, "expand peak \(expanded.peakMemoryKiB) KiB")
    }
  }
}
