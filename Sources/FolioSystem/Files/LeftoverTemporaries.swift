package import Glibc

/// Removes what killed Folio runs left beside a target.
///
/// Every temporary is named by ``TemporaryName`` (`.NAME.folio-KIND-PID-RANDOM`),
/// so a process killed mid-run (`SIGKILL`, a power cut) leaves something
/// recognisable. Whatever writes a target first removes that target's
/// leftovers whose process is gone and which were last modified before this
/// run began; it never touches another target's temporaries, a live
/// process's, a younger one, or any other name.
///
/// Names of earlier Folio versions are recognised too: `.NAME.folio-PID-RANDOM`
/// (exports) and `.NAME.folio-XXXXXXXX.tmp` (`plist convert`, which named no
/// process: removed when older than this run by ``legacyMargin``).
package enum LeftoverTemporaries {
  /// When this process began its first write (leftovers must be older).
  private static let runStart: timespec = {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return now
  }()

  /// How much older than this run a temporary that names no process must be.
  package static let legacyMarginSeconds = 600

  /// Notes the moment this run began, before any temporary is created.
  package static func markRunStart() {
    _ = runStart
  }

  /// Removes the stale temporaries of one target, ignoring failures (a
  /// leftover that cannot be removed now is tried again by the next run).
  ///
  /// - Parameter target: The path of the file or folder about to be written.
  package static func remove(beside target: String) {
    markRunStart()
    let (folder, prefix) = TemporaryName.prefix(of: target)
    guard let names = try? FolderListing.names(atPath: folder) else { return }
    for name in names where name.hasPrefix(prefix) {
      guard let owner = owner(of: name.dropFirst(prefix.count)) else { continue }
      let path = folder + "/" + name
      var info = stat()
      guard lstat(path, &info) == 0 else { continue }
      switch owner {
      case .process(let pid):
        guard !isRunning(pid), isOlderThanRun(info.st_mtim, by: 0) else { continue }
      case .unknown:
        guard isOlderThanRun(info.st_mtim, by: legacyMarginSeconds) else { continue }
      }
      FileTree.remove(atPath: path)  // does not follow symlinks; sees every name
    }
  }

  /// Who made a temporary, from the rest of its name after `.NAME.folio-`.
  package enum Owner: Equatable {
    /// The process with this ID.
    case process(pid_t)
    /// An earlier version's name that records no process.
    case unknown
  }

  /// The owner in `KIND-PID-RANDOM`, `PID-RANDOM` or `XXXXXXXX.tmp`; `nil` for any other name.
  ///
  /// - Parameter rest: The name after `.NAME.folio-`.
  /// - Returns: The owner, or `nil` when the name is not a Folio temporary's.
  package static func owner(of rest: Substring) -> Owner? {
    var rest = rest
    for kind in TemporaryName.Kind.allCases where rest.hasPrefix(kind.rawValue + "-") {
      rest = rest.dropFirst(kind.rawValue.count + 1)
      break
    }
    let parts = rest.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    if parts.count == 2, !parts[1].isEmpty, let pid = pid_t(parts[0]), pid > 0 {
      return .process(pid)
    }
    if rest.count == 12, rest.hasSuffix(".tmp"), rest.dropLast(4).allSatisfy(\.isHexDigit) {
      return .unknown
    }
    return nil
  }

  private static func isRunning(_ pid: pid_t) -> Bool {
    pid == getpid() || kill(pid, 0) == 0 || errno == EPERM
  }

  private static func isOlderThanRun(_ time: timespec, by seconds: Int) -> Bool {
    let start = runStart.tv_sec - seconds
    return time.tv_sec < start || (time.tv_sec == start && time.tv_nsec < runStart.tv_nsec)
  }
}
