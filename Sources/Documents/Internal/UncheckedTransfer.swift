import Archives
/// Carries a value that is not `Sendable` into blocking work the caller only awaits.
///
/// Safe where the sender gives the value up: it does not touch it until the work returns.
package struct UncheckedTransfer<Value>: @unchecked Sendable {
  package let value: Value
  package init(_ value: Value) { self.value = value }
}
