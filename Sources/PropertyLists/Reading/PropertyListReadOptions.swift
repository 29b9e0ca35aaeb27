/// Limits that keep reading hostile input bounded in time and memory.
public struct PropertyListReadOptions: Sendable, Hashable {
  /// The default input size limit: 16 MiB.
  ///
  /// Far above any real Info.plist (the largest in the test corpus is 180 KB). Reading
  /// takes about ten times the input in memory, so the limit bounds memory too.
  public static let defaultMaximumInputSize = 16 << 20
  /// The default nesting limit: 128 containers (libxml2 itself stops at 256 elements).
  public static let defaultMaximumDepth = 128
  /// The default value limit: 1,000,000 values (strings, numbers, containers…), far above
  /// any real property list and within the memory a reader may take (about 100 bytes each).
  public static let defaultMaximumValueCount = 1_000_000

  /// The largest input accepted, in bytes; larger inputs fail with `input-too-large`.
  public var maximumInputSize: Int
  /// The deepest nesting of arrays and dictionaries accepted; deeper input fails with `too-deep`.
  public var maximumDepth: Int
  /// The most values a text property list (XML, JSON, OpenStep) may hold.
  ///
  /// Containers count; more values fail with `too-many-values`. A binary property list is
  /// bounded by its object table and its expansion limit instead.
  public var maximumValueCount: Int = PropertyListReadOptions.defaultMaximumValueCount

  /// Creates options.
  ///
  /// - Parameters:
  ///   - maximumInputSize: The largest input accepted, in bytes.
  ///   - maximumDepth: The deepest nesting of containers accepted.
  public init(
    maximumInputSize: Int = PropertyListReadOptions.defaultMaximumInputSize,
    maximumDepth: Int = PropertyListReadOptions.defaultMaximumDepth
  ) {
    self.maximumInputSize = maximumInputSize
    self.maximumDepth = maximumDepth
  }
}
