package import Synchronization

extension Atomic where Value == Int {
  /// Lowers the value to `candidate` when `candidate` is smaller, whatever other threads
  /// store meanwhile (a compare-and-exchange loop: the standard library has no atomic
  /// minimum).
  ///
  /// - Parameter candidate: The value to keep if it is the smallest yet.
  /// - Returns: Whether `candidate` was stored.
  @discardableResult
  package func storeMinimum(_ candidate: Int) -> Bool {
    var current = load(ordering: .relaxed)
    while candidate < current {
      let (exchanged, original) = compareExchange(
        expected: current, desired: candidate, ordering: .relaxed)
      if exchanged { return true }
      current = original
    }
    return false
  }
}
