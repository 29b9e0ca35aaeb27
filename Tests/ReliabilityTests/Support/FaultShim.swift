import FolioTestSupport
import Foundation

/// The test-only fault-injection library (`Shim/faultinject.c`), compiled once per test run.
///
/// Loaded into the `folio` binary with `LD_PRELOAD`, it breaks the Nth matching system call
/// on a path under a prefix folder; see the comment at the top of the C file for its
/// environment variables.
enum FaultShim {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var built: URL?

  /// `Tests/ReliabilityTests/Shim/faultinject.c`.
  static var source: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Shim/faultinject.c")
  }

  /// The C compiler: the toolchain's `clang` beside `swift`, else `cc` on `PATH`.
  static var compiler: String {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let swift = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
      guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
      let clang = swift.resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("clang")
      if FileManager.default.isExecutableFile(atPath: clang.path) { return clang.path }
    }
    return "cc"
  }

  /// The compiled library, built on first use into a temporary folder of this test run.
  ///
  /// - Returns: The `.so` file's URL.
  /// - Throws: When the compiler fails.
  static func library() throws -> URL {
    lock.lock()
    defer { lock.unlock() }
    if let built { return built }
    let folder = try makeTemporaryDirectory("faultinject")
    let output = folder.appendingPathComponent("faultinject.so")
    let result = try runProcess(
      compiler, ["-shared", "-fPIC", "-O1", "-o", output.path, source.path, "-ldl", "-lpthread"])
    guard result.status == 0 else {
      throw ShimFailure("compiling \(source.path) with \(compiler) failed: \(result.errorText)")
    }
    built = output
    return output
  }
}

/// A failure of the test machinery itself (not of Folio).
struct ShimFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// One injected fault: which calls, which occurrence, what they return.
struct Fault: Sendable, CustomStringConvertible {
  /// What a broken call does.
  enum Effect: Sendable, Equatable {
    /// Fails with an errno name such as `ENOSPC`, `EIO`, `EINTR`.
    case error(String)
    /// Transfers about half of what was asked (read and write families).
    case short
  }

  /// Call names as the shim spells them (`write`, `pwrite`, `fsync`, `rename`, …).
  var calls: [String]
  /// Which matching call breaks, counting from 1.
  var occurrence: Int
  /// What the broken call does.
  var effect: Effect
  /// Whether every matching call from `occurrence` on breaks (a disk that stays full).
  var repeats = false

  var environment: [String: String] {
    var values = [
      "FOLIO_FAULT_CALL": calls.joined(separator: ","),
      "FOLIO_FAULT_NTH": String(occurrence),
      "FOLIO_FAULT_REPEAT": repeats ? "1" : "0",
    ]
    switch effect {
    case .error(let name): values["FOLIO_FAULT_ERRNO"] = name
    case .short: values["FOLIO_FAULT_ERRNO"] = "short"
    }
    return values
  }

  var description: String {
    let what: String
    switch effect {
    case .error(let name): what = name
    case .short: what = "short count"
    }
    return "\(calls.joined(separator: "+")) #\(occurrence)\(repeats ? "+" : "") → \(what)"
  }
}

/// A change made to a file while Folio reads it: right after the Nth successful read of it
/// (or of `trigger`, to change a file Folio has listed but not opened yet).
struct Mutation: Sendable {
  /// What happens to the file.
  enum Kind: String, Sendable, CaseIterable {
    case truncate, shrink, grow, unlink
  }

  var kind: Kind
  var file: URL
  var afterRead = 1
  var trigger: URL? = nil

  var environment: [String: String] {
    [
      "FOLIO_FAULT_MUTATE": kind.rawValue,
      "FOLIO_FAULT_MUTATE_PATH": file.resolvingSymlinksInPath().path,
      "FOLIO_FAULT_MUTATE_NTH": String(afterRead),
      "FOLIO_FAULT_MUTATE_AFTER": trigger?.resolvingSymlinksInPath().path ?? "",
    ]
  }
}

/// What the shim wrote: calls counted per name, faults fired, files changed.
struct FaultLog: Sendable {
  var counts: [String: Int] = [:]
  var fired: [String] = []
  var mutated: [String] = []

  init(contentsOf url: URL) {
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return }
    for line in text.split(separator: "\n") {
      let words = line.split(separator: " ", maxSplits: 2)
      switch words.first {
      case "count" where words.count == 3:
        counts[String(words[1]), default: 0] += Int(words[2]) ?? 0
      case "fired": fired.append(String(line))
      case "mutated": mutated.append(String(line))
      default: break
      }
    }
  }

  /// How many calls of these names were seen under the prefix.
  func count(of calls: [String]) -> Int {
    calls.reduce(0) { $0 + (counts[$1] ?? 0) }
  }
}

/// The outcome of one `folio` run under the shim.
struct ShimmedRun: Sendable {
  var result: ChildResult
  var log: FaultLog
}

/// Runs the built `folio` with the shim loaded, counting (and breaking) calls under `prefix`.
///
/// - Parameters:
///   - arguments: The words after `folio`.
///   - prefix: Only calls on paths under this folder count.
///   - fault: The fault to inject, or `nil` for a counting run.
///   - mutation: A file to change under Folio's feet.
///   - environment: Further variables.
/// - Returns: The exit status, output and the shim's log.
/// - Throws: When the shim cannot be built or `folio` cannot start.
func runFolioUnderShim(
  _ arguments: [String], prefix: URL, fault: Fault? = nil, mutation: Mutation? = nil,
  environment: [String: String] = [:]
) throws -> ShimmedRun {
  try runUnderShim(
    FolioBinary.url.path, arguments, prefix: prefix, fault: fault, mutation: mutation,
    environment: environment)
}

/// Runs a program with the shim loaded, counting (and breaking) calls under `prefix`.
///
/// - Parameters:
///   - executable: The program's path.
///   - arguments: Its arguments.
///   - prefix: Only calls on paths under this folder count.
///   - fault: The fault to inject, or `nil` for a counting run.
///   - mutation: A file to change under the program's feet.
///   - environment: Further variables.
/// - Returns: The exit status, output and the shim's log.
/// - Throws: When the shim cannot be built or the program cannot start.
func runUnderShim(
  _ executable: String, _ arguments: [String], prefix: URL, fault: Fault? = nil,
  mutation: Mutation? = nil, environment: [String: String] = [:]
) throws -> ShimmedRun {
  let logURL = FileManager.default.temporaryDirectory
    .appendingPathComponent("folio-fault-\(UUID().uuidString).log")
  defer { try? FileManager.default.removeItem(at: logURL) }
  var variables = environment
  variables["LD_PRELOAD"] = try FaultShim.library().path
  variables["FOLIO_FAULT_PREFIX"] = prefix.resolvingSymlinksInPath().path
  variables["FOLIO_FAULT_LOG"] = logURL.path
  if let fault { variables.merge(fault.environment) { $1 } }
  if let mutation { variables.merge(mutation.environment) { $1 } }
  let result = try ChildProcess.run(executable, arguments, environment: variables)
  return ShimmedRun(result: result, log: FaultLog(contentsOf: logURL))
}

/// Which occurrences of a call to break when a run makes `count` of them: all of them when
/// there are few, else the first, the last and an even spread between.
///
/// - Parameters:
///   - count: How many calls a clean run makes.
///   - limit: At most this many.
/// - Returns: 1-based occurrences, ascending.
func sampledOccurrences(of count: Int, limit: Int) -> [Int] {
  guard count > limit else { return Array(1...max(count, 1)).filter { $0 <= count } }
  var picks = Set([1, count])
  let step = Double(count - 1) / Double(limit - 1)
  for index in 1..<(limit - 1) { picks.insert(1 + Int((Double(index) * step).rounded())) }
  return picks.sorted()
}
