#if canImport(UniformTypeIdentifiers)
  // Apple's platforms have the real UTTagClass; Folio's would shadow it.
#else
  /// A class of tags that identify a type in another scheme: filename extensions, MIME types.
  ///
  /// This is Apple's `UTTagClass` from the Uniform Type Identifiers framework,
  /// with the same names, over Folio's type registry. A tag class is itself
  /// spelled as a type identifier, such as `public.filename-extension`.
  public struct UTTagClass: RawRepresentable, Hashable, Sendable, Codable,
    CustomStringConvertible, CustomDebugStringConvertible
  {
    /// The tag class identifier, such as `public.mime-type`.
    public let rawValue: String

    /// Creates a tag class from its identifier.
    ///
    /// - Parameter rawValue: The tag class identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The tag class for filename extensions (`public.filename-extension`), written without a dot.
    public static let filenameExtension = UTTagClass(rawValue: "public.filename-extension")
    /// The tag class for MIME types (`public.mime-type`).
    public static let mimeType = UTTagClass(rawValue: "public.mime-type")

    public var description: String { rawValue }
    public var debugDescription: String { "UTTagClass(\(rawValue))" }

    /// The same tag class as Folio's registry names it.
    package var tagClass: TagClass { TagClass(TypeIdentifier(rawValue)) }
  }
#endif
