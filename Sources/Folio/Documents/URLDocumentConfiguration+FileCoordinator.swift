#if !canImport(SwiftUI)
  // Beside NSFileCoordinator, in the umbrella: the layers stay on FoundationEssentials.
  public import Documents

  extension URLDocumentConfiguration {
    /// Creates a file coordinator for reading or writing the document outside the
    /// reader and writer, such as reading one file of a package on demand.
    ///
    /// The coordinator locks the whole document for items inside it: shared for
    /// reading, exclusive for writing, so it waits for a save in progress. Make a new
    /// one for each operation.
    ///
    /// - Returns: The coordinator.
    public func makeFileCoordinator() -> sending NSFileCoordinator {
      guard let fileURL else { return NSFileCoordinator() }
      return NSFileCoordinator(document: fileURL, lockOptions: lockOptions)
    }
  }
#endif
