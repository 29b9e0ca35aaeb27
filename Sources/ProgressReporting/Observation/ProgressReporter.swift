/// A read-only view of a ``ProgressManager``, for observers.
///
/// As in Foundation's proposal SF-0023, a library that reports progress
/// hands out the reporter (``ProgressManager/reporter``), never the manager,
/// so observers can read the counts and properties but not change them.
///
/// Beside SF-0023's members, Folio's reporter offers ``events(interval:)``:
/// file starts and ends as they happen, and the operation's counts, throughput
/// and time remaining at most once per interval, ending by itself when the
/// work does.
@dynamicMemberLookup
public final class ProgressReporter: Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  let manager: ProgressManager

  init(manager: ProgressManager) {
    self.manager = manager
  }

  /// The total units of work, or `nil` when unknown.
  public var totalCount: Int? { manager.totalCount }
  /// The units completed so far.
  public var completedCount: Int { manager.completedCount }
  /// How much of the work is done, from 0 to 1, counting children's partial work.
  public var fractionCompleted: Double { manager.fractionCompleted }
  /// Whether the total is unknown.
  public var isIndeterminate: Bool { manager.isIndeterminate }
  /// Whether the completed count has reached a known total.
  public var isFinished: Bool { manager.isFinished }

  /// Reads an `Int` property of the manager, such as ``ProgressManager/Properties/totalFileCount``.
  ///
  /// - Parameter key: The property.
  public subscript<P: ProgressManager.Property>(
    dynamicMember key: KeyPath<ProgressManager.Properties, P.Type>
  ) -> Int where P.Value == Int, P.Summary == Int { manager[dynamicMember: key] }

  /// Reads a `UInt64` property of the manager, such as ``ProgressManager/Properties/completedByteCount``.
  ///
  /// - Parameter key: The property.
  public subscript<P: ProgressManager.Property>(
    dynamicMember key: KeyPath<ProgressManager.Properties, P.Type>
  ) -> UInt64 where P.Value == UInt64, P.Summary == UInt64 { manager[dynamicMember: key] }

  /// Reads a listed `UInt64` property of the manager, such as ``ProgressManager/Properties/throughput``.
  ///
  /// - Parameter key: The property.
  public subscript<P: ProgressManager.Property>(
    dynamicMember key: KeyPath<ProgressManager.Properties, P.Type>
  ) -> UInt64 where P.Value == UInt64, P.Summary == [UInt64] { manager[dynamicMember: key] }

  /// Reads a `Double` property of the manager.
  ///
  /// - Parameter key: The property.
  public subscript<P: ProgressManager.Property>(
    dynamicMember key: KeyPath<ProgressManager.Properties, P.Type>
  ) -> Double where P.Value == Double, P.Summary == Double { manager[dynamicMember: key] }

  /// Reads a `Duration` property of the manager.
  ///
  /// - Parameter key: The property.
  public subscript<P: ProgressManager.Property>(
    dynamicMember key: KeyPath<ProgressManager.Properties, P.Type>
  ) -> Duration where P.Value == Duration, P.Summary == Duration { manager[dynamicMember: key] }

  /// Reads a `String?` property of the manager, such as ``ProgressManager/Properties/currentFile``.
  ///
  /// - Parameter key: The property.
  public subscript<P: ProgressManager.Property>(
    dynamicMember key: KeyPath<ProgressManager.Properties, P.Type>
  ) -> String? where P.Value == String?, P.Summary == [String?] { manager[dynamicMember: key] }

  /// An `Int` property combined over the manager's subtree.
  ///
  /// - Parameter property: The property.
  /// - Returns: The subtree's summary.
  public func summary<P: ProgressManager.Property>(
    of property: KeyPath<ProgressManager.Properties, P.Type>
  ) -> Int where P.Value == Int, P.Summary == Int { manager.summary(P.self) }

  /// A `UInt64` property combined over the manager's subtree.
  ///
  /// - Parameter property: The property.
  /// - Returns: The subtree's summary.
  public func summary<P: ProgressManager.Property>(
    of property: KeyPath<ProgressManager.Properties, P.Type>
  ) -> UInt64 where P.Value == UInt64, P.Summary == UInt64 { manager.summary(P.self) }

  /// A `UInt64` property listed over the manager's subtree.
  ///
  /// - Parameter property: The property.
  /// - Returns: The subtree's summary.
  public func summary<P: ProgressManager.Property>(
    of property: KeyPath<ProgressManager.Properties, P.Type>
  ) -> [UInt64] where P.Value == UInt64, P.Summary == [UInt64] { manager.summary(P.self) }

  /// A `Double` property combined over the manager's subtree.
  ///
  /// - Parameter property: The property.
  /// - Returns: The subtree's summary.
  public func summary<P: ProgressManager.Property>(
    of property: KeyPath<ProgressManager.Properties, P.Type>
  ) -> Double where P.Value == Double, P.Summary == Double { manager.summary(P.self) }

  /// A `Duration` property combined over the manager's subtree.
  ///
  /// - Parameter property: The property.
  /// - Returns: The subtree's summary.
  public func summary<P: ProgressManager.Property>(
    of property: KeyPath<ProgressManager.Properties, P.Type>
  ) -> Duration where P.Value == Duration, P.Summary == Duration { manager.summary(P.self) }

  /// A `String?` property listed over the manager's subtree.
  ///
  /// - Parameter property: The property.
  /// - Returns: The subtree's summary.
  public func summary<P: ProgressManager.Property>(
    of property: KeyPath<ProgressManager.Properties, P.Type>
  ) -> [String?] where P.Value == String?, P.Summary == [String?] { manager.summary(P.self) }

  // MARK: Folio's observation

  /// The whole operation's counts, rates and estimate now (the tree this
  /// manager belongs to, from its root).
  public var snapshot: ProgressSnapshot {
    manager.meter.snapshot(fraction: manager.root.fractionCompleted)
  }

  /// The operation's events, for a display: file starts and ends as they
  /// happen, count updates at most once per interval, then one final snapshot.
  ///
  /// The stream ends by itself when the operation's root manager finishes
  /// (its completed count reaches its total) or goes away, so an observer
  /// never waits for a producer to say it is done. Several observers may
  /// watch at once; one that starts after the end gets the final snapshot.
  ///
  /// - Parameter interval: The shortest time between two `update` events.
  /// - Returns: A stream of events.
  public func events(interval: Duration = .milliseconds(100)) -> AsyncStream<ProgressEvent> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: ProgressEvent.self, bufferingPolicy: .unbounded)
    manager.meter.addObserver(continuation, interval: interval, root: manager.root)
    return stream
  }

  // MARK: Identity and description

  /// Reporters are equal when they show the same manager.
  public static func == (lhs: ProgressReporter, rhs: ProgressReporter) -> Bool {
    lhs.manager === rhs.manager
  }

  /// Hashes the manager's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(manager)) }

  /// The manager's counts in a line.
  public var description: String { "ProgressReporter(\(manager.description))" }

  /// The same as ``description``.
  public var debugDescription: String { description }
}
