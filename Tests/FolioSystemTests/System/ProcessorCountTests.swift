import FolioSystem
import FolioTestSupport
import Foundation
import Testing

/// One count of jobs for packing, expanding and batch export: the processors the process
/// may run on (its CPU affinity), unless a count is asked for.
@Suite struct ProcessorCountTests {
  /// coreutils' `nproc` counts the processors in the process's affinity mask, as `taskset`
  /// and a container's cpuset set it; the child inherits this process's mask.
  @Test(.enabled(if: programExists("nproc"), "needs coreutils' nproc"))
  func theAvailableProcessorsAreTheAffinityMasksAsNprocCountsThem() throws {
    // nproc also honours OpenMP's variables, which say nothing about affinity.
    let result = try runProcess(
      "env", ["-u", "OMP_NUM_THREADS", "-u", "OMP_THREAD_LIMIT", "nproc"])
    #expect(result.status == 0)
    let counted = Int(result.outputText.trimmingCharacters(in: .whitespacesAndNewlines))
    #expect(counted == ProcessorCount.available)
  }

  @Test func anUnsetCountIsTheAvailableProcessorsAndAnyCountIsAtLeastOne() {
    #expect(ProcessorCount.jobs(nil) == ProcessorCount.available)
    #expect(ProcessorCount.jobs(3) == 3)
    #expect(ProcessorCount.jobs(0) == 1)
  }
}
