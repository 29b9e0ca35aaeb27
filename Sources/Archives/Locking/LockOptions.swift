public import FoundationEssentials

/// How an operation waits for another process's lock on a package: the one
/// lock setting of pack, expand, export, batch export and document sessions.
///
/// ```swift
/// let lock = LockOptions(timeout: .seconds(5)) { wait in
///   print("waiting for \(wait.kind) lock on \(wait.package.path)")
/// }
/// try await Packer.pack(package, to: archive, lockOptions: lock)
/// ```
public struct LockOptions: Sendable {
  /// The wait Folio allows by default before giving up: 30 seconds.
  public static let defaultTimeout: Duration = .seconds(30)

  /// Waits up to ``defaultTimeout`` and tells no one.
  public static var `default`: LockOptions { LockOptions() }

  /// How long to wait; `.zero` fails at once when the lock is held.
  public var timeout: Duration
  /// Called once, before the first wait, when another process holds the lock.
  public var onWait: (@Sendable (LockWait) -> Void)?

  /// Creates lock options.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait; `.zero` fails at once when the lock is held.
  ///   - onWait: Called once, before the first wait, when another process holds the lock.
  public init(
    timeout: Duration = LockOptions.defaultTimeout,
    onWait: (@Sendable (LockWait) -> Void)? = nil
  ) {
    self.timeout = timeout
    self.onWait = onWait
  }
}

/// A wait for a lock another process holds, reported once through
/// ``LockOptions/onWait`` before the first sleep: what is waited for, not a
/// sentence (a program words it for its own users).
public struct LockWait: Hashable, Sendable {
  /// The lock wanted: shared to read, exclusive to write.
  public var kind: PackageLock.Kind
  /// The package (or file) whose lock is held.
  public var package: URL
  /// How long the wait may last before it fails with `lock-timeout`.
  public var timeout: Duration

  /// Creates a wait.
  ///
  /// - Parameters:
  ///   - kind: The lock wanted.
  ///   - package: The package whose lock is held.
  ///   - timeout: How long the wait may last.
  public init(kind: PackageLock.Kind, package: URL, timeout: Duration) {
    self.kind = kind
    self.package = package
    self.timeout = timeout
  }
}
