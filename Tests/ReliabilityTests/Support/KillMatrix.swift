import FolioTestSupport
import Foundation
import Testing

/// Whether a name is one of Folio's temporaries: `.NAME.folio-tmp-PID-RANDOM` (an archive
/// being written), `.NAME.folio-expand-…` (an expansion being staged), `.NAME.folio-PID-…`,
/// `.NAME.folio-work-PID-…` and `.NAME.folio-old-PID-…` (an export being written).
func isFolioTemporary(_ name: String) -> Bool {
  name.hasPrefix(".") && name.contains(".folio-") && !isLockFile(name)
}

/// One `folio` job to kill at random moments.
struct KillScenario: Sendable, CustomStringConvertible {
  /// What the job is, such as `pack zip`.
  var name: String
  /// Creates the inputs in a folder; returns folio's arguments and the destination.
  var prepare: @Sendable (URL) throws -> (arguments: [String], destination: URL)
  /// Puts the destination back as it was before the job (absent, or an older version),
  /// leaving everything else alone.
  var reset: @Sendable (URL) throws -> Void
  /// Checks a destination the job finished; returns problems (empty when good).
  var verify: @Sendable (URL) throws -> [String]

  var description: String { name }
}

/// What a kill matrix did, for the report.
struct KillTally: Sendable {
  var kills = 0
  var completedBeforeKill = 0
  var leftovers = 0
}

/// How many times each job is killed: `FOLIO_KILL_RUNS`, else 20.
var killRuns: Int {
  Int(ProcessInfo.processInfo.environment["FOLIO_KILL_RUNS"] ?? "") ?? 20
}

/// Kills a job at random moments and checks what it leaves.
///
/// Runs the job once to learn how long it takes, then starts it again `runs` times and sends
/// `SIGKILL` at a random moment of that span, checking each time that the destination is
/// either as before or complete and valid, never partial, and that anything else left
/// behind is a recognisable temporary. Finally a clean run must succeed, remove every
/// temporary older than itself, and leave other files alone.
///
/// - Parameters:
///   - scenario: The job.
///   - runs: How many kills.
/// - Returns: What happened.
/// - Throws: When the test machinery fails.
func runKillMatrix(_ scenario: KillScenario, runs: Int = killRuns) throws -> KillTally {
  var tally = KillTally()
  let folder = try makeTemporaryDirectory("kill")
  defer { removeTree(folder) }
  let (arguments, destination) = try scenario.prepare(folder)

  let started = Date()
  let clean = try ChildProcess.run(FolioBinary.url.path, arguments)
  let duration = Date().timeIntervalSince(started)
  print("reliability: \(scenario) takes \(String(format: "%.2f", duration)) s")
  try #require(clean.status == 0, "\(scenario): clean run failed: \(clean.errorText)")
  try #require(try scenario.verify(destination) == [], "\(scenario): clean result")
  let complete = TreeSnapshot.take(destination)

  // Files a cleanup must never touch: look-alikes of temporaries that are not Folio's.
  let decoys = [
    "notes.txt", "\(destination.lastPathComponent).folio-tmp-1-abc",
    ".\(destination.lastPathComponent).backup", ".other.folio-tmp-x",
  ].map { folder.appendingPathComponent($0) }
  for decoy in decoys { try Data("keep me\n".utf8).write(to: decoy) }

  try scenario.reset(folder)
  let entriesBefore = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))

  var generator = SystemRandomNumberGenerator()
  var seen = Set<String>()
  for run in 1...runs {
    let before = TreeSnapshot.take(destination)
    let delay = Double.random(in: 0...(duration * 1.1), using: &generator)
    let child = try ChildProcess(FolioBinary.url.path, arguments)
    usleep(UInt32(delay * 1_000_000))
    child.send(SIGKILL)
    let ended = child.wait()
    tally.kills += 1
    if ended.status == 0 { tally.completedBeforeKill += 1 }
    let label = "\(scenario) kill \(run) at \(String(format: "%.3f", delay)) s"

    let now = TreeSnapshot.take(destination)
    let unchanged = now.differences(from: before).isEmpty
    if !unchanged {
      let problems = try scenario.verify(destination)
      #expect(problems == [], "\(label): destination neither unchanged nor complete")
      #expect(
        now.contentDifferences(from: complete) == [],
        "\(label): destination neither unchanged nor complete")
    }
    let extras = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
      .subtracting(entriesBefore).subtracting([destination.lastPathComponent])
      .filter { !isLockFile($0) }
    let unknown = extras.filter { !isFolioTemporary($0) }
    #expect(unknown.isEmpty, "\(label): unrecognisable leftovers \(unknown.sorted())")
    tally.leftovers += extras.subtracting(unknown).subtracting(seen).count
    seen.formUnion(extras)
    try scenario.reset(folder)
  }

  // The next run removes what killed runs left behind (older than itself), and nothing else:
  // not a temporary of a live process that is younger than the run.
  let leftovers = Set(
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter(isFolioTemporary)
  )
  .subtracting(entriesBefore)
  let live = folder.appendingPathComponent(
    ".\(destination.lastPathComponent).folio-tmp-\(getpid())-fresh")
  try Data("in progress\n".utf8).write(to: live)
  var future = [timespec(tv_sec: time(nil) + 3600, tv_nsec: 0)]
  future.append(future[0])
  utimensat(AT_FDCWD, live.path, &future, 0)
  sleep(1)  // so every leftover is strictly older than the run
  let final = try ChildProcess.run(FolioBinary.url.path, arguments)
  #expect(final.status == 0, "\(scenario): run after the kills: \(final.errorText)")
  #expect(try scenario.verify(destination) == [], "\(scenario): run after the kills")
  let remaining = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
  #expect(
    remaining.isDisjoint(with: leftovers),
    "\(scenario): \(leftovers.count) leftovers before the run, still there: \(remaining.intersection(leftovers).sorted())"
  )
  #expect(
    FileManager.default.fileExists(atPath: live.path),
    "\(scenario): a live process's younger temporary was removed")
  for decoy in decoys {
    #expect(
      (try? Data(contentsOf: decoy)) == Data("keep me\n".utf8),
      "\(scenario): \(decoy.lastPathComponent) was touched")
  }
  return tally
}
