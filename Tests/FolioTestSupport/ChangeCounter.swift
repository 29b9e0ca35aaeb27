import Synchronization

/// Counts the times an Observation `onChange` fired.
public final class ChangeCounter: Sendable {
  private let count = Atomic<Int>(0)

  /// Creates a counter at zero.
  public init() {}

  /// How many times ``fire()`` ran.
  public var value: Int { count.load(ordering: .acquiring) }

  /// Counts one change.
  public func fire() { count.add(1, ordering: .acquiringAndReleasing) }
}
