// libFuzzer target: archive bytes in, `Expander.expandSynchronously` into a fenced folder.
//
// Built and run by `scripts/fuzz/run.sh expand SECONDS` (swiftc -sanitize=fuzzer,address);
// not part of `swift build`. Invariants checked after every input, whether the expansion
// succeeded or was refused:
// - nothing appears outside the destination: the fence around it holds exactly what it
//   held before (no escaped entry, no leftover staging folder);
// - a refused expansion leaves the destination exactly as it was (absent, or the
//   sentinel tree an update or replace started from);
// - an accepted expansion holds no link that leaves it and no setuid, setgid, sticky or
//   group/other-write bit;
// - no crash, no sanitizer report, no hang past libFuzzer's -timeout (the policy's limits
//   are small so a bomb stops early).
import Archives
import FolioSystem
import Foundation

/// `/tmp/folio-fuzz-expand-XXXXXX/l1/l2/l3/fence/inner`: deep, so `../` escapes land in
/// folders this harness watches.
let workspace: URL = {
  var template = Array("/tmp/folio-fuzz-expand-XXXXXX".utf8CString)
  guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
    fatalError("cannot create a scratch folder")
  }
  return URL(fileURLWithPath: String(cString: made), isDirectory: true)
}()
let archive = workspace.appendingPathComponent("input.archive")
let fence = workspace.appendingPathComponent("l1/l2/l3/fence")
let inner = fence.appendingPathComponent("inner")
let destination = inner.appendingPathComponent("Restored.examplenotebook")
let sentinel = destination.appendingPathComponent("sentinel.txt")
/// What the sentinel file holds (a literal, not a global `Data`: LeakSanitizer takes a
/// global's lazily made buffer for a leak at exit).
let sentinelText: StaticString = "the tree an update starts from\n"
var sentinelBytes: Data {
  Data(bytes: sentinelText.utf8Start, count: sentinelText.utf8CodeUnitCount)
}

let policy = ExpansionPolicy(
  maxTotalBytes: 16 << 20, maxEntryCount: 4_096, maxCompressionRatio: 200,
  ratioGraceBytes: 1 << 16, maxNameLength: 1_024, maxComponentLength: 255)

/// Every path under `root` (relative), links not followed.
func listing(_ root: URL) -> [String] {
  guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
  var paths: [String] = []
  while let path = walker.nextObject() as? String { paths.append(path) }
  return paths.sorted()
}

func fail(_ message: String) -> Never {
  fatalError("expand fuzz invariant broken: \(message)")
}

func checkExpandedTree() {
  for relative in listing(destination) {
    let path = destination.appendingPathComponent(relative).path
    var info = stat()
    guard lstat(path, &info) == 0 else { fail("cannot lstat \(relative)") }
    if info.st_mode & S_IFMT == S_IFLNK {
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else {
        fail("unreadable link \(relative)")
      }
      if target.hasPrefix("/") { fail("absolute link \(relative) -> \(target)") }
      // Resolve the target lexically from the link's folder; it must stay inside.
      var depth = relative.split(separator: "/").count - 1
      for component in target.split(separator: "/") {
        if component == ".." { depth -= 1 } else if component != "." { depth += 1 }
        if depth < 0 { fail("link \(relative) -> \(target) leaves the destination") }
      }
    } else if info.st_mode & 0o7022 != 0 {
      fail("\(relative) has mode \(String(info.st_mode & 0o7777, radix: 8))")
    }
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func expandFuzzTestOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
  let data = Data(bytes: bytes, count: count)
  guard (try? data.write(to: archive)) != nil else { fail("cannot write the input") }
  try? FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
  // The size picks the mode, so every byte stays the archive's.
  let mode: ReplacePolicy = [.refuse, .replace, .update][count % 3]
  if mode != .refuse {
    try? FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
    try? sentinelBytes.write(to: sentinel)
  }
  let fenceBefore = listing(workspace)

  let succeeded =
    (try? Expander.expandSynchronously(
      archive, into: destination, policy: policy, replacePolicy: mode))
    != nil

  let destinationPath = "l1/l2/l3/fence/inner/Restored.examplenotebook"
  func isOutside(_ path: String) -> Bool {
    path != destinationPath && !path.hasPrefix(destinationPath + "/")
  }
  let outside = listing(workspace).filter(isOutside)
  let expectedOutside = fenceBefore.filter(isOutside)
  if outside != expectedOutside {
    fail("outside the destination: \(Set(outside).symmetricDifference(expectedOutside).sorted())")
  }
  if succeeded {
    checkExpandedTree()
  } else if mode == .refuse {
    if FileManager.default.fileExists(atPath: destination.path) {
      fail("a refused expansion left \(listing(destination))")
    }
  } else if listing(destination) != ["sentinel.txt"]
    || FileManager.default.contents(atPath: sentinel.path) != sentinelBytes
  {
    fail("a refused \(mode) changed the destination: \(listing(destination))")
  }
  removeTree(destination.path)
  return 0
}

/// Removes a tree whatever its permissions (an expansion may make read-only folders).
func removeTree(_ path: String) {
  var info = stat()
  guard lstat(path, &info) == 0 else { return }
  if info.st_mode & S_IFMT == S_IFDIR {
    chmod(path, 0o700)
    for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
      removeTree(path + "/" + name)
    }
    rmdir(path)
  } else {
    unlink(path)
  }
}

/// Creates the globals before the first input, so their one-time allocations are not
/// mistaken for leaks of that input.
@_cdecl("LLVMFuzzerInitialize")
public func expandFuzzInitialize(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
  _ = (workspace, archive, fence, inner, destination, sentinel, policy)
  return 0
}
