#if !canImport(UniformTypeIdentifiers)
  public import FoundationEssentials

  // Apple's Uniform Type Identifiers framework extends URL with these (documented under
  // Foundation's URL); Folio answers them from its type registry.
  extension URL {
    /// A URL with a path component made of `partialName` and, unless it has one already,
    /// the preferred filename extension of `contentType`.
    ///
    /// When `partialName` already ends in an extension that names `contentType` or a type
    /// conforming to it (`puppy.jpg` for `.image`), it is appended as it is; otherwise the
    /// type's ``UTType/preferredFilenameExtension`` is added (`puppy.jpg` for `.png` gives
    /// `puppy.jpg.png`). A type with no extension adds none. A component of a folder or
    /// package type is marked as a directory.
    ///
    /// - Parameters:
    ///   - partialName: The name, with or without an extension.
    ///   - contentType: The type the item will be.
    /// - Returns: The URL with the component appended.
    public func appendingPathComponent(_ partialName: String, conformingTo contentType: UTType)
      -> URL
    {
      let hint: DirectoryHint = contentType.conforms(to: .directory) ? .isDirectory : .notDirectory
      return appending(
        path: Self.name(partialName, typedAs: contentType), directoryHint: hint)
    }

    /// Appends a path component made of `partialName` and, unless it has one already, the
    /// preferred filename extension of `contentType`; see
    /// `appendingPathComponent(_:conformingTo:)`.
    ///
    /// - Parameters:
    ///   - partialName: The name, with or without an extension.
    ///   - contentType: The type the item will be.
    public mutating func appendPathComponent(
      _ partialName: String, conformingTo contentType: UTType
    ) {
      self = appendingPathComponent(partialName, conformingTo: contentType)
    }

    /// A URL whose last component ends in the preferred filename extension of
    /// `contentType`, unless it ends in an extension of that type already.
    ///
    /// - Parameter contentType: The type the item will be.
    /// - Returns: The URL with the extension appended, or unchanged when the type has no
    ///   extension, the last component has one of the type's already, or the URL has no path.
    public func appendingPathExtension(for contentType: UTType) -> URL {
      let last = lastPathComponent
      guard !last.isEmpty, last != "/" else { return self }
      let named = Self.name(last, typedAs: contentType)
      guard named != last, let added = contentType.preferredFilenameExtension else { return self }
      return appendingPathExtension(added)
    }

    /// Appends the preferred filename extension of `contentType` to the last component,
    /// unless it ends in an extension of that type already; see
    /// `appendingPathExtension(for:)`.
    ///
    /// - Parameter contentType: The type the item will be.
    public mutating func appendPathExtension(for contentType: UTType) {
      self = appendingPathExtension(for: contentType)
    }

    /// `name`, with the type's preferred extension added unless it already ends in one
    /// that names the type or a type conforming to it.
    static func name(_ name: String, typedAs contentType: UTType) -> String {
      let existing = URL(filePath: name, directoryHint: .notDirectory).pathExtension
      if !existing.isEmpty,
        let named = UTType(filenameExtension: existing, conformingTo: contentType),
        !named.isDynamic
      {
        return name
      }
      guard let added = contentType.preferredFilenameExtension, !added.isEmpty else {
        return name
      }
      return name + "." + added
    }
  }

#endif
