import FolioTestSupport
import Foundation
import Testing

/// One `folio` job to break: it creates its inputs in a folder and says how to run it.
struct FaultScenario: Sendable, CustomStringConvertible {
  /// What the job is, such as `pack zip`.
  var name: String
  /// Creates the inputs in a folder and returns folio's arguments and the destination.
  var prepare: @Sendable (URL) throws -> (arguments: [String], destination: URL)
  /// Checks a destination a run finished; returns problems (empty when good).
  var verify: @Sendable (URL) throws -> [String]
  /// Whether two clean runs give identical bytes (so a retried fault must too).
  var isDeterministic = true

  var description: String { name }
}

/// Which faults a matrix injects: errors that must be reported, and interruptions and short
/// counts that must be retried.
enum FaultPlan {
  /// Call families and the errno a real disk gives them; `repeats` keeps failing (full disk).
  static let errors: [(calls: [String], errno: String, repeats: Bool)] = [
    (["write", "pwrite", "writev", "sendfile", "copy_file_range"], "ENOSPC", true),
    (["write", "pwrite", "writev"], "EIO", false),
    (["read", "pread", "readv"], "EIO", false),
    (["fsync", "fdatasync", "syncfs"], "EIO", false),
    (["open", "openat", "creat", "mkstemp"], "ENOSPC", false),
    (["rename", "renameat"], "ENOSPC", false),
    (["mkdir", "mkdirat"], "ENOSPC", false),
    (["symlink", "symlinkat", "link", "linkat"], "ENOSPC", false),
    (["ftruncate", "fchmod", "futimens", "utimensat"], "EIO", false),
  ]

  /// Faults Folio must absorb: the run succeeds and its result is unchanged.
  static let retried: [(calls: [String], effect: Fault.Effect)] = [
    (["read", "pread", "readv"], .error("EINTR")),
    (["write", "pwrite", "writev"], .error("EINTR")),
    (["fsync", "fdatasync"], .error("EINTR")),
    (["read", "pread", "readv"], .short),
    (["write", "pwrite", "writev"], .short),
  ]

  /// Fault points tried per call family: `FOLIO_FAULT_SAMPLES` (a number, or `all`),
  /// else a few spread over the run.
  static var samples: Int {
    let value = ProcessInfo.processInfo.environment["FOLIO_FAULT_SAMPLES"] ?? ""
    if value == "all" { return Int.max }
    return Int(value) ?? 4
  }

  /// What `strerror` says for an errno name.
  static func text(of errno: String) -> String {
    switch errno {
    case "ENOSPC": "No space left on device"
    case "EIO": "Input/output error"
    case "EDQUOT": "Disk quota exceeded"
    default: errno
    }
  }
}

/// What a matrix did, for the report.
struct FaultTally: Sendable {
  var injected = 0
  var retried = 0
  /// Faults Folio absorbed with a correct result (after the commit, or with a fallback).
  var afterCommit = 0
}

/// Whether Folio may go on after a fault and succeed.
///
/// True when the fault hit the flush of the destination's folder (after the rename that commits the result), or a call that is not a
/// write of data or a flush of it (a failed hard link, say, which has a copying fallback).
/// Failed writes and flushes of data must always be reported.
private func isAbsorbable(_ fired: String, destination: URL) -> Bool {
  let words = fired.split(separator: " ")
  guard words.count > 1 else { return false }
  let call = String(words[1])
  if ["open", "openat", "fsync", "fdatasync"].contains(call)
    && fired.hasSuffix(" " + destination.deletingLastPathComponent().path)
  {
    return true
  }
  // Flushing the folders of a chained export's scratch work, which is thrown away.
  if ["fsync", "fdatasync"].contains(call) && fired.contains(".folio-work-") { return true }
  let mustReport = [
    "write", "pwrite", "writev", "sendfile", "copy_file_range", "fsync", "fdatasync", "syncfs",
    "rename",
    "renameat", "ftruncate", "fchmod", "futimens", "utimensat",
  ]
  return !mustReport.contains(call)
}

/// Files Folio may leave beside a package on purpose: its advisory lock files.
func isLockFile(_ path: String) -> Bool {
  path.hasSuffix(".folio-lock")
}

/// Differences between two snapshots of a test folder, lock files aside.
func folderDifferences(_ after: TreeSnapshot, _ before: TreeSnapshot) -> [String] {
  func withoutLocks(_ snapshot: TreeSnapshot) -> TreeSnapshot {
    TreeSnapshot(entries: snapshot.entries.filter { !isLockFile($0.key) })
  }
  var beforeFolders = withoutLocks(before)
  var afterFolders = withoutLocks(after)
  // A lock file appearing changes its folder's mtime and size; that is not a leftover.
  for key in Set(beforeFolders.entries.keys).intersection(afterFolders.entries.keys)
  where beforeFolders.entries[key]?.kind == .directory {
    afterFolders.entries[key]?.modified = 0
    beforeFolders.entries[key]?.modified = 0
  }
  return afterFolders.differences(from: beforeFolders)
}

/// Runs a scenario once cleanly under the shim (counting calls), then again with a fault at
/// sampled points of every call family the clean run made, checking each time that folio
/// exits 1 naming the cause, that the folder is exactly as before, and that a clean rerun
/// succeeds; then with each retried fault, checking the run succeeds with the same result.
///
/// - Parameter scenario: The job.
/// - Returns: How many faults were injected.
/// - Throws: When the test machinery fails.
func runFaultMatrix(_ scenario: FaultScenario) throws -> FaultTally {
  var tally = FaultTally()
  let countingFolder = try makeTemporaryDirectory("faults-count")
  defer { removeTree(countingFolder) }
  let (countingArguments, countingDestination) = try scenario.prepare(countingFolder)
  let clean = try runFolioUnderShim(countingArguments, prefix: countingFolder)
  try #require(
    clean.result.status == 0, "\(scenario): clean run failed: \(clean.result.errorText)")
  let problems = try scenario.verify(countingDestination)
  #expect(problems.isEmpty, "\(scenario): clean result: \(problems)")
  try #require(
    clean.log.count(of: ["write", "pwrite", "writev"]) > 0,
    "\(scenario): the shim saw no write under \(countingFolder.path); is it loaded?")
  let reference = TreeSnapshot.take(countingDestination)

  var folder = try makeTemporaryDirectory("faults")
  defer { removeTree(folder) }
  var (arguments, destination) = try scenario.prepare(folder)
  var before = TreeSnapshot.take(folder)
  /// Starts again from a clean folder, so later faults are judged on their own.
  func startAgain() throws {
    removeTree(folder)
    folder = try makeTemporaryDirectory("faults")
    (arguments, destination) = try scenario.prepare(folder)
    before = TreeSnapshot.take(folder)
  }

  for plan in FaultPlan.errors {
    let count = clean.log.count(of: plan.calls)
    guard count > 0 else { continue }
    for occurrence in sampledOccurrences(of: count, limit: FaultPlan.samples) {
      let fault = Fault(
        calls: plan.calls, occurrence: occurrence, effect: .error(plan.errno),
        repeats: plan.repeats)
      let run = try runFolioUnderShim(arguments, prefix: folder, fault: fault)
      guard let fired = run.log.fired.first else {
        // Fewer calls this time (threads make a run's count vary): the run went through
        // without a fault, and its result, in the folder, is not the next fault's to judge.
        if run.result.status == 0 { try startAgain() }
        continue
      }
      tally.injected += 1
      let stderr = run.result.errorText
      if run.result.status == 0 && isAbsorbable(fired, destination: destination) {
        // Either the flush of the folder after the rename (the result is in place and
        // whole; nothing to undo), or an optional step with a fallback (an update that
        // cannot hard-link an unchanged file copies it). The result must be right.
        tally.afterCommit += 1
        let problems = try scenario.verify(destination)
        #expect(problems.isEmpty, "\(scenario) [\(fault)]: result: \(problems)")
        try startAgain()
        continue
      }
      #expect(
        run.result.status == 1,
        "\(scenario) [\(fault)]: exit \(String(describing: run.result.status)), signal \(String(describing: run.result.signal)) (\(fired)): \(stderr)"
      )
      #expect(
        stderr.contains(FaultPlan.text(of: plan.errno)),
        "\(scenario) [\(fault)]: the message does not give the cause: \(stderr)")
      let named = namesPath(stderr, fired: fired, folder: folder, destination: destination)
      #expect(named, "\(scenario) [\(fault)]: the message names no path: \(stderr)")
      let changes = folderDifferences(TreeSnapshot.take(folder), before)
      #expect(changes == [], "\(scenario) [\(fault)]: the folder changed")
      if !changes.isEmpty || run.result.status == 0 { try startAgain() }
    }
  }

  let rerun = try runFolioUnderShim(arguments, prefix: folder)
  #expect(rerun.result.status == 0, "\(scenario): rerun without fault: \(rerun.result.errorText)")
  let rerunProblems = try scenario.verify(destination)
  #expect(rerunProblems.isEmpty, "\(scenario): rerun result: \(rerunProblems)")

  for plan in FaultPlan.retried {
    let count = clean.log.count(of: plan.calls)
    guard count > 0 else { continue }
    for occurrence in sampledOccurrences(of: count, limit: max(1, FaultPlan.samples / 2)) {
      let fault = Fault(calls: plan.calls, occurrence: occurrence, effect: plan.effect)
      let retryFolder = try makeTemporaryDirectory("faults-retry")
      defer { removeTree(retryFolder) }
      let (retryArguments, retryDestination) = try scenario.prepare(retryFolder)
      let run = try runFolioUnderShim(retryArguments, prefix: retryFolder, fault: fault)
      guard !run.log.fired.isEmpty else { continue }
      tally.retried += 1
      #expect(
        run.result.status == 0,
        "\(scenario) [\(fault)]: must be retried, not reported: \(run.result.errorText)")
      guard run.result.status == 0 else { continue }
      let problems = try scenario.verify(retryDestination)
      #expect(problems.isEmpty, "\(scenario) [\(fault)]: result: \(problems)")
      guard scenario.isDeterministic else { continue }
      let differences = TreeSnapshot.take(retryDestination).contentDifferences(from: reference)
      #expect(differences == [], "\(scenario) [\(fault)]: the result differs")
    }
  }
  return tally
}

/// Whether an error message names a path: the destination, or a part of the path the
/// broken call was on.
private func namesPath(_ message: String, fired: String, folder: URL, destination: URL) -> Bool {
  if message.contains(destination.lastPathComponent) { return true }
  guard let start = fired.range(of: " /") else { return false }
  let path = String(fired[fired.index(after: start.lowerBound)...])
  let relative =
    path.hasPrefix(folder.path + "/") ? String(path.dropFirst(folder.path.count + 1)) : path
  return relative.split(separator: "/").contains { message.contains($0) }
}
