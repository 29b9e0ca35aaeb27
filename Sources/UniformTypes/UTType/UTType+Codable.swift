#if !canImport(UniformTypeIdentifiers)
  extension UTType: Codable {
    /// Decodes a type from its identifier, as Apple's framework encodes it.
    ///
    /// An identifier the registry does not know decodes to an undeclared type with
    /// that identifier (so a document naming a type this program never registered
    /// still opens, and encodes back unchanged).
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` when the value is not a string or is empty.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      let identifier = try container.decode(String.self)
      guard !identifier.isEmpty else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "a type identifier cannot be empty")
      }
      self = UTType(identifier) ?? UTType(resolved: TypeIdentifier(identifier))
    }

    /// Encodes the type as its identifier: a single string such as `"public.json"`.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(identifier)
    }
  }
#endif
