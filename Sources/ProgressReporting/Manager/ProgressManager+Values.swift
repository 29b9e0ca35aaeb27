import Synchronization

/// The values of a manager's properties other than the four counts, and what
/// its ended children left of every property.
struct PropertyStore: Sendable {
  struct Entry: Sendable {
    let type: any ProgressManager.Property.Type
    var value: any Sendable
  }

  /// This manager's own values, by property type.
  var values: [ObjectIdentifier: Entry] = [:]
  /// The summaries ended children left, by property type (``Property/finalSummary(_:_:)``).
  var retired: [ObjectIdentifier: Entry] = [:]
}

extension ProgressManager {
  private typealias Key = ObjectIdentifier

  // MARK: Members (SF-0023's dynamic member lookup)

  /// Reads or writes an `Int` property, such as ``Properties/totalFileCount``.
  ///
  /// - Parameter key: The property, as a member of ``Properties``.
  public subscript<P: Property>(dynamicMember key: KeyPath<Properties, P.Type>) -> Int
  where P.Value == Int, P.Summary == Int {
    get {
      if P.self == Properties.TotalFileCount.self { return fileTotal.load(ordering: .relaxed) }
      if P.self == Properties.CompletedFileCount.self {
        return fileCompleted.load(ordering: .relaxed)
      }
      return storedValue(P.self)
    }
    set {
      if P.self == Properties.TotalFileCount.self {
        let old = fileTotal.exchange(newValue, ordering: .relaxed)
        meter.addFileTotal(newValue &- old)
      } else if P.self == Properties.CompletedFileCount.self {
        let old = fileCompleted.exchange(newValue, ordering: .relaxed)
        meter.addCompletedFiles(newValue &- old)
      } else {
        store(newValue, for: P.self)
      }
    }
  }

  /// Reads or writes a `UInt64` property, such as ``Properties/completedByteCount``.
  ///
  /// - Parameter key: The property, as a member of ``Properties``.
  public subscript<P: Property>(dynamicMember key: KeyPath<Properties, P.Type>) -> UInt64
  where P.Value == UInt64, P.Summary == UInt64 {
    get {
      if P.self == Properties.CompletedByteCount.self {
        return byteCompleted.load(ordering: .relaxed)
      }
      if P.self == Properties.TotalByteCount.self { return byteTotal.load(ordering: .relaxed) }
      return storedValue(P.self)
    }
    set {
      if P.self == Properties.CompletedByteCount.self {
        let old = byteCompleted.exchange(newValue, ordering: .relaxed)
        meter.addCompletedBytes(newValue &- old)
      } else if P.self == Properties.TotalByteCount.self {
        let old = byteTotal.exchange(newValue, ordering: .relaxed)
        meter.addByteTotal(newValue &- old)
      } else {
        store(newValue, for: P.self)
      }
    }
  }

  /// Reads or writes a `UInt64` property listed over a subtree, such as ``Properties/throughput``.
  ///
  /// - Parameter key: The property, as a member of ``Properties``.
  public subscript<P: Property>(dynamicMember key: KeyPath<Properties, P.Type>) -> UInt64
  where P.Value == UInt64, P.Summary == [UInt64] {
    get { storedValue(P.self) }
    set { store(newValue, for: P.self) }
  }

  /// Reads or writes a `Double` property.
  ///
  /// - Parameter key: The property, as a member of ``Properties``.
  public subscript<P: Property>(dynamicMember key: KeyPath<Properties, P.Type>) -> Double
  where P.Value == Double, P.Summary == Double {
    get { storedValue(P.self) }
    set { store(newValue, for: P.self) }
  }

  /// Reads or writes a `Duration` property, such as ``Properties/estimatedTimeRemaining``.
  ///
  /// - Parameter key: The property, as a member of ``Properties``.
  public subscript<P: Property>(dynamicMember key: KeyPath<Properties, P.Type>) -> Duration
  where P.Value == Duration, P.Summary == Duration {
    get { storedValue(P.self) }
    set { store(newValue, for: P.self) }
  }

  /// Reads or writes a `String?` property, such as ``Properties/currentFile``.
  ///
  /// - Parameter key: The property, as a member of ``Properties``.
  public subscript<P: Property>(dynamicMember key: KeyPath<Properties, P.Type>) -> String?
  where P.Value == String?, P.Summary == [String?] {
    get { storedValue(P.self) }
    set { store(newValue, for: P.self) }
  }

  // MARK: Summaries

  /// An `Int` property combined over this manager and its descendants,
  /// ended ones included (``Property/finalSummary(_:_:)`` decides what they leave).
  ///
  /// - Parameter property: The property, as a member of ``Properties``.
  /// - Returns: The subtree's summary.
  public func summary<P: Property>(of property: KeyPath<Properties, P.Type>) -> Int
  where P.Value == Int, P.Summary == Int { summary(P.self) }

  /// A `UInt64` property combined over this manager and its descendants.
  ///
  /// - Parameter property: The property, as a member of ``Properties``.
  /// - Returns: The subtree's summary.
  public func summary<P: Property>(of property: KeyPath<Properties, P.Type>) -> UInt64
  where P.Value == UInt64, P.Summary == UInt64 { summary(P.self) }

  /// A `UInt64` property listed over this manager and its descendants.
  ///
  /// - Parameter property: The property, as a member of ``Properties``.
  /// - Returns: The subtree's summary.
  public func summary<P: Property>(of property: KeyPath<Properties, P.Type>) -> [UInt64]
  where P.Value == UInt64, P.Summary == [UInt64] { summary(P.self) }

  /// A `Double` property combined over this manager and its descendants.
  ///
  /// - Parameter property: The property, as a member of ``Properties``.
  /// - Returns: The subtree's summary.
  public func summary<P: Property>(of property: KeyPath<Properties, P.Type>) -> Double
  where P.Value == Double, P.Summary == Double { summary(P.self) }

  /// A `Duration` property combined over this manager and its descendants.
  ///
  /// - Parameter property: The property, as a member of ``Properties``.
  /// - Returns: The subtree's summary.
  public func summary<P: Property>(of property: KeyPath<Properties, P.Type>) -> Duration
  where P.Value == Duration, P.Summary == Duration { summary(P.self) }

  /// A `String?` property listed over this manager and its descendants.
  ///
  /// - Parameter property: The property, as a member of ``Properties``.
  /// - Returns: The subtree's summary.
  public func summary<P: Property>(of property: KeyPath<Properties, P.Type>) -> [String?]
  where P.Value == String?, P.Summary == [String?] { summary(P.self) }

  // MARK: Storage

  /// This manager's own value of any property.
  func value<P: Property>(_ type: P.Type) -> P.Value {
    switch P.self {
    case is Properties.TotalFileCount.Type:
      return fileTotal.load(ordering: .relaxed) as! P.Value
    case is Properties.CompletedFileCount.Type:
      return fileCompleted.load(ordering: .relaxed) as! P.Value
    case is Properties.TotalByteCount.Type:
      return byteTotal.load(ordering: .relaxed) as! P.Value
    case is Properties.CompletedByteCount.Type:
      return byteCompleted.load(ordering: .relaxed) as! P.Value
    default:
      return storedValue(P.self)
    }
  }

  private func storedValue<P: Property>(_ type: P.Type) -> P.Value {
    store.withLock { $0.values[Key(P.self)]?.value as? P.Value } ?? P.defaultValue
  }

  /// Stores ``Properties/currentFile`` as its setter does, without the generic setter's
  /// casts (a writer starts thousands of files a second); the caller tells the meter.
  ///
  /// - Parameter path: The file now worked on.
  func storeCurrentFile(_ path: String) {
    storeValue(path, for: Properties.CurrentFile.self)
  }

  private func store<P: Property>(_ value: P.Value, for type: P.Type) {
    storeValue(value, for: type)
    if P.self == Properties.CurrentFile.self { meter.setCurrentFile(value as? String) }
  }

  private func storeValue<P: Property>(_ value: P.Value, for type: P.Type) {
    store.withLock { $0.values[Key(P.self)] = .init(type: P.self, value: value) }
  }

  /// The summary of any property over this manager's subtree.
  func summary<P: Property>(_ type: P.Type) -> P.Summary {
    var summary = P.defaultSummary
    let (own, retired) = store.withLock { store in
      (
        store.values[Key(P.self)]?.value as? P.Value,
        store.retired[Key(P.self)]?.value as? P.Summary
      )
    }
    if let own {
      P.reduce(into: &summary, value: own)
    } else if Self.isCount(P.self) {
      P.reduce(into: &summary, value: value(P.self))
    }
    if let retired { summary = P.merge(summary, retired) }
    for child in liveChildren { summary = P.merge(summary, child.summary(P.self)) }
    return summary
  }

  private static func isCount<P: Property>(_ type: P.Type) -> Bool {
    P.self == Properties.TotalFileCount.self || P.self == Properties.CompletedFileCount.self
      || P.self == Properties.TotalByteCount.self || P.self == Properties.CompletedByteCount.self
  }

  /// Leaves this ending manager's summaries with its parent.
  ///
  /// Its children have ended already (each holds its parent), so its summary
  /// is its own values and what they left.
  func retireProperties(into parent: ProgressManager) {
    let types: [any Property.Type] =
      [
        Properties.TotalFileCount.self, Properties.CompletedFileCount.self,
        Properties.TotalByteCount.self, Properties.CompletedByteCount.self,
      ]
      + store.withLock { store in
        Array(store.values.values.map(\.type)) + store.retired.values.map(\.type)
      }
    var seen = Set<ObjectIdentifier>()
    for type in types where seen.insert(ObjectIdentifier(type)).inserted {
      parent.retire(type, from: self)
    }
  }

  private func retire<P: Property>(_ type: P.Type, from child: ProgressManager) {
    let childSummary = child.summary(P.self)
    store.withLock { store in
      let held = store.retired[Key(P.self)]?.value as? P.Summary ?? P.defaultSummary
      store.retired[Key(P.self)] = .init(
        type: P.self, value: P.finalSummary(held, childSummary))
    }
  }
}
