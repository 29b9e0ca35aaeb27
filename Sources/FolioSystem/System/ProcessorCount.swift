import Glibc

/// How many processors this process may run on: its CPU affinity mask
/// (`taskset`, a container's cpuset), not the machine's processor count.
package enum ProcessorCount {
  private typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32

  /// The processors the process may use, at least 1.
  ///
  /// The corresponding C function is `sched_getaffinity` (found at run time:
  /// Swift's `Glibc` hides it behind `_GNU_SOURCE`); without it, the processors online.
  package static let available: Int = {
    let library = dlopen(nil, RTLD_NOW)
    if let symbol = dlsym(library, "sched_getaffinity") {
      let getAffinity = unsafeBitCast(symbol, to: GetAffinity.self)
      // A mask of 1,024 processors, as glibc's `cpu_set_t`.
      var mask = [UInt64](repeating: 0, count: 16)
      let status = mask.withUnsafeMutableBytes { getAffinity(0, $0.count, $0.baseAddress!) }
      if status == 0 {
        let count = mask.reduce(0) { $0 + $1.nonzeroBitCount }
        if count > 0 { return count }
      }
    }
    return max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
  }()

  /// How many threads (or concurrent tasks) a job count asks for.
  ///
  /// `requested`, at least 1, or ``available`` when `nil`. Packing, expanding and batch
  /// export all take their default here, so a count left unset means the same for each.
  ///
  /// - Parameter requested: The count asked for, or `nil` for the default.
  /// - Returns: The count to use.
  package static func jobs(_ requested: Int?) -> Int { max(1, requested ?? available) }
}
