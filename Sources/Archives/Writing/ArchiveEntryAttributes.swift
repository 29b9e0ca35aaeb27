public import FoundationEssentials
import Glibc

/// The metadata an entry added from memory or with overridden attributes carries.
public struct ArchiveEntryAttributes: Sendable, Hashable {
  /// Permission bits (`0o644`); bits above `0o7777` are ignored.
  public var permissions: UInt16
  /// The modification time.
  public var modificationTime: Date

  /// Creates attributes.
  ///
  /// - Parameters:
  ///   - permissions: Permission bits.
  ///   - modificationTime: The modification time.
  public init(permissions: UInt16 = 0o644, modificationTime: Date = Date()) {
    self.permissions = permissions
    self.modificationTime = modificationTime
  }

  var timespec: Glibc.timespec {
    let interval = modificationTime.timeIntervalSince1970
    let seconds = interval.rounded(.down)
    let nanoseconds = min(999_999_999, max(0, Int((interval - seconds) * 1e9)))
    return Glibc.timespec(tv_sec: Int(seconds), tv_nsec: nanoseconds)
  }
}
