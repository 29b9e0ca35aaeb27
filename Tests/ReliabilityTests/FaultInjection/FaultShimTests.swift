import FolioTestSupport
import Foundation
import Testing

/// The fault shim itself: it must break exactly the call it is told to, and only under its
/// prefix, or every fault test built on it proves nothing.
@Suite("Fault shim")
struct FaultShimTests {
  private let dd = "/bin/dd"

  private func makeInput(in folder: URL, bytes: Int = 40_000) throws -> URL {
    let input = folder.appendingPathComponent("input.bin")
    try Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: input)
    return input
  }

  @Test func countsOnlyCallsUnderThePrefix() async throws {
    try await withTemporaryDirectory("shim-count") { folder in
      let input = try makeInput(in: folder)
      let inside = folder.appendingPathComponent("inside.bin")
      let outside = try makeTemporaryDirectory("shim-outside")
      defer { removeTree(outside) }
      let run = try runUnderShim(
        dd, ["if=\(input.path)", "of=\(inside.path)", "bs=4096"], prefix: folder)
      #expect(run.result.status == 0)
      #expect(run.log.counts["write"] == 10)
      #expect(run.log.counts["read"] ?? 0 >= 10)

      let away = try runUnderShim(
        dd, ["if=\(input.path)", "of=\(outside.appendingPathComponent("x").path)", "bs=4096"],
        prefix: folder)
      #expect(away.result.status == 0)
      #expect(away.log.counts["write"] == nil, "writes outside the prefix were counted")
    }
  }

  @Test func breaksTheNthWriteWithTheChosenErrno() async throws {
    try await withTemporaryDirectory("shim-enospc") { folder in
      let input = try makeInput(in: folder)
      let output = folder.appendingPathComponent("output.bin")
      let run = try runUnderShim(
        dd, ["if=\(input.path)", "of=\(output.path)", "bs=4096"], prefix: folder,
        fault: Fault(calls: ["write"], occurrence: 3, effect: .error("ENOSPC")))
      #expect(run.result.status == 1)
      #expect(run.result.errorText.contains("No space left on device"))
      #expect(run.log.fired.count == 1)
      #expect(run.log.fired.first?.contains(output.path) == true)
      let written = try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int
      #expect(written == 2 * 4096)
    }
  }

  @Test func repeatingFaultKeepsFailing() async throws {
    try await withTemporaryDirectory("shim-repeat") { folder in
      let input = try makeInput(in: folder)
      let output = folder.appendingPathComponent("output.bin")
      let run = try runUnderShim(
        dd, ["if=\(input.path)", "of=\(output.path)", "bs=4096", "conv=noerror"],
        prefix: folder,
        fault: Fault(calls: ["write"], occurrence: 2, effect: .error("EIO"), repeats: true))
      #expect(run.result.status == 1)
      #expect(run.log.fired.count >= 1)
      #expect(run.log.fired.allSatisfy { $0.contains("Input/output error") })
    }
  }

  @Test func shortCountTransfersLessWithoutAnError() async throws {
    try await withTemporaryDirectory("shim-short") { folder in
      let input = try makeInput(in: folder)
      let output = folder.appendingPathComponent("output.bin")
      let run = try runUnderShim(
        dd, ["if=\(input.path)", "of=\(output.path)", "bs=4096"], prefix: folder,
        fault: Fault(calls: ["read"], occurrence: 1, effect: .short))
      #expect(run.result.status == 0)
      #expect(!run.result.errorText.contains("+0 records in"), "dd saw no partial read")
      #expect(try Data(contentsOf: output) == Data(contentsOf: input))
    }
  }

  @Test(arguments: Mutation.Kind.allCases)
  func mutationChangesTheFileAfterItsNthRead(_ kind: Mutation.Kind) async throws {
    try await withTemporaryDirectory("shim-mutate") { folder in
      let input = try makeInput(in: folder)
      let output = folder.appendingPathComponent("output.bin")
      let run = try runUnderShim(
        dd, ["if=\(input.path)", "of=\(output.path)", "bs=4096"], prefix: folder,
        mutation: Mutation(kind: kind, file: input, afterRead: 2))
      #expect(run.result.status == 0)
      #expect(run.log.mutated.count == 1)
      let size = (try? Data(contentsOf: output))?.count ?? -1
      switch kind {
      case .truncate: #expect(size == 2 * 4096)
      case .shrink: #expect(size == 20_000)
      case .grow: #expect(size == 40_000 + 65_536)
      case .unlink:
        #expect(size == 40_000, "an unlinked file stays readable through its descriptor")
        #expect(!FileManager.default.fileExists(atPath: input.path))
      }
    }
  }

  @Test func mutationCanChangeAnotherFileThanTheOneRead() async throws {
    try await withTemporaryDirectory("shim-trigger") { folder in
      let input = try makeInput(in: folder)
      let other = folder.appendingPathComponent("other.txt")
      try Data("soon gone\n".utf8).write(to: other)
      let run = try runUnderShim(
        dd, ["if=\(input.path)", "of=/dev/null", "bs=4096"], prefix: folder,
        mutation: Mutation(kind: .unlink, file: other, afterRead: 1, trigger: input))
      #expect(run.result.status == 0)
      #expect(run.log.mutated.count == 1)
      #expect(!FileManager.default.fileExists(atPath: other.path))
      #expect(FileManager.default.fileExists(atPath: input.path))
    }
  }

  /// Swift and libarchive reach libc through the dynamic linker, so the shim sees
  /// `folio`'s own calls: counted in a clean run, broken on demand.
  @Test func reachesFoliosOwnCalls() async throws {
    try await withTemporaryDirectory("shim-folio") { folder in
      let package = try NotebookFixture.make(
        at: folder.appendingPathComponent("Shim.examplenotebook"))
      let output = folder.appendingPathComponent("Shim.zip")
      let arguments = ["pack", package.path, "-o", output.path, "--quiet"]
      let clean = try runFolioUnderShim(arguments, prefix: folder)
      #expect(clean.result.status == 0)
      #expect(clean.log.counts["write"] ?? 0 > 0, "no write by folio was seen: \(clean.log)")
      // The zip writer's workers read files at offsets (pread), libarchive's tar reader with read.
      let reads = (clean.log.counts["read"] ?? 0) + (clean.log.counts["pread"] ?? 0)
      #expect(reads > 0, "no read by folio was seen: \(clean.log)")
      #expect(clean.log.counts["fsync"] ?? 0 > 0, "no fsync by folio was seen: \(clean.log)")
      try FileManager.default.removeItem(at: output)

      let broken = try runFolioUnderShim(
        arguments, prefix: folder,
        fault: Fault(calls: ["write"], occurrence: 1, effect: .error("ENOSPC")))
      #expect(broken.log.fired.count == 1)
      #expect(broken.result.status == 1)
      #expect(broken.result.errorText.contains("No space left on device"))
      #expect(!FileManager.default.fileExists(atPath: output.path))
    }
  }

  @Test func compilerIsTheToolchainsClangWhenPresent() {
    let compiler = FaultShim.compiler
    #expect(compiler.hasSuffix("/clang") || compiler == "cc")
  }
}
