public import FolioSystem

/// A decoded value together with the place in the source it was read from.
///
/// Type declarations keep the location of every field, so a validator can
/// point at the exact `<string>` that is wrong.
public struct Located<Value: Sendable>: Sendable {
  /// The decoded value.
  public var value: Value
  /// Where the value was written, if it was read from a file.
  public var location: SourceLocation?

  /// Creates a located value.
  ///
  /// - Parameters:
  ///   - value: The decoded value.
  ///   - location: Where it was written.
  public init(_ value: Value, location: SourceLocation? = nil) {
    self.value = value
    self.location = location
  }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}

extension Located where Value == TypeIdentifier {
  /// The identifier as written, at the same place: the public face of a declared identifier.
  package var asWritten: Located<String> { Located<String>(value.rawValue, location: location) }
}

extension Located where Value == String {
  /// The text as an identifier, at the same place.
  package var asIdentifier: Located<TypeIdentifier> {
    Located<TypeIdentifier>(TypeIdentifier(value), location: location)
  }
}
