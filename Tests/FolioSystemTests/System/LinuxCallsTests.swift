import FolioSystem
import Glibc
import Testing

@Suite struct LinuxCallsTests {
  @Test func mallocTakesAFixedThresholdForBlocksOfTheirOwn() {
    // glibc's own starting value, so other tests in this process see no change but the
    // fixing. Where a block then goes is malloc's choice (a free stretch of a thread's
    // arena can still serve it), so only the answer is checked here; the effect on the
    // command's peak is measured by scripts/bench/memory.sh.
    #expect(LinuxCalls.fixMallocMapThreshold(128 * 1024))
  }

  @Test func renameWithoutReplacingRefusesAnExistingTarget() throws {
    let folder = "/tmp/folio-linuxcalls-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    #expect(mkdir(folder, 0o700) == 0)
    defer {
      unlink(folder + "/a")
      unlink(folder + "/b")
      rmdir(folder)
    }
    for name in ["a", "b"] {
      let descriptor = open(folder + "/" + name, O_CREAT | O_WRONLY, 0o600)
      #expect(descriptor >= 0)
      close(descriptor)
    }
    #expect(
      LinuxCalls.rename(folder + "/a", folder + "/b", flags: LinuxCalls.renameNoReplace) == -1)
    #expect(errno == EEXIST)
  }
}
