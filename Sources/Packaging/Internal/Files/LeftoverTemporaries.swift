public import Foundation

/// Removes what killed `folio` runs left beside a destination.
///
/// Folio's temporaries are named `.NAME<marker>PID-RANDOM` (an archive being
/// written: `.folio-tmp-`; an expansion being staged: `.folio-expand-`), so
/// a process killed mid-run (`SIGKILL`, a power cut) leaves something
/// recognisable. The next write to the same destination removes those whose
/// process is gone and which were last modified before this run began; it
/// never touches another destination's temporaries, a live process's, a
/// younger one, or any other name. Exporting's temporaries (`.NAME.folio-PID-…`,
/// `.folio-old-`, `.folio-work-`) follow the same rule.
package enum LeftoverTemporaries {
  /// When this process began its first write (leftovers must be older).
  private static let runStart: timespec = {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return now
  }()

  /// Notes the moment this run began, before any temporary is created.
  package static func markRunStart() {
    _ = runStart
  }

  /// Removes the stale temporaries of one destination, ignoring failures (a
  /// leftover that cannot be removed now is tried again by the next run).
  ///
  /// - Parameters:
  ///   - destination: The file or folder about to be written.
  ///   - marker: The temporary kind's marker, such as `.folio-tmp-`.
  package static func remove(beside destination: URL, marker: String) {
    markRunStart()
    let folder = destination.deletingLastPathComponent().path
    let prefix = "." + destination.lastPathComponent + marker
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    for name in names where name.hasPrefix(prefix) {
      guard let owner = Self.owner(of: name.dropFirst(prefix.count)), !isRunning(owner) else {
        continue
      }
      let path = folder + "/" + name
      var info = stat()
      guard lstat(path, &info) == 0, isOlderThanRun(info.st_mtim) else { continue }
      if (info.st_mode & S_IFMT) == S_IFDIR {
        StagingFolder.removeTree(path)  // does not follow symlinks; sees every name
      } else {
        unlink(path)
      }
    }
  }

  /// The process ID in `PID-RANDOM`, or `nil` when the rest of the name is not that.
  static func owner(of rest: Substring) -> pid_t? {
    let parts = rest.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[1].isEmpty, let pid = pid_t(parts[0]), pid > 0 else {
      return nil
    }
    return pid
  }

  private static func isRunning(_ pid: pid_t) -> Bool {
    pid == getpid() || kill(pid, 0) == 0 || errno == EPERM
  }

  private static func isOlderThanRun(_ time: timespec) -> Bool {
    time.tv_sec < runStart.tv_sec
      || (time.tv_sec == runStart.tv_sec && time.tv_nsec < runStart.tv_nsec)
  }
}
