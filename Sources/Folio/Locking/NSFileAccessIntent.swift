#if canImport(Darwin)
  // Foundation on Apple's platforms has NSFileAccessIntent; Folio's would shadow it.
#else
  public import Foundation

  /// One coordinated read or write of ``NSFileCoordinator/coordinate(with:queue:byAccessor:)``:
  /// Foundation's `NSFileAccessIntent` for Linux.
  ///
  /// ```swift
  /// let intent = NSFileAccessIntent.readingIntent(with: packageURL, options: .forUploading)
  /// NSFileCoordinator().coordinate(with: [intent], queue: queue) { error in
  ///   guard error == nil else { return }
  ///   upload(intent.url)  // a zip archive of the package while the accessor runs
  /// }
  /// ```
  public final class NSFileAccessIntent: @unchecked Sendable {
    /// The item to access, as given.
    let requestedURL: URL
    /// Whether the intent writes (an exclusive lock) rather than reads (a shared one).
    let isWriting: Bool
    let readingOptions: NSFileCoordinator.ReadingOptions
    let writingOptions: NSFileCoordinator.WritingOptions

    /// The URL to use inside the accessor.
    ///
    /// It is the item's, or for a reading intent with
    /// ``NSFileCoordinator/ReadingOptions/forUploading`` of a folder, the temporary zip
    /// archive of it while the accessor runs.
    public internal(set) var url: URL

    private init(
      url: URL, isWriting: Bool, readingOptions: NSFileCoordinator.ReadingOptions,
      writingOptions: NSFileCoordinator.WritingOptions
    ) {
      requestedURL = url
      self.url = url
      self.isWriting = isWriting
      self.readingOptions = readingOptions
      self.writingOptions = writingOptions
    }

    /// An intent to read an item.
    ///
    /// - Parameters:
    ///   - url: The item to read.
    ///   - options: How to read it (``NSFileCoordinator/ReadingOptions/forUploading`` zips a folder).
    /// - Returns: The intent.
    public class func readingIntent(
      with url: URL, options: NSFileCoordinator.ReadingOptions = []
    ) -> Self {
      Self(url: url, isWriting: false, readingOptions: options, writingOptions: [])
    }

    /// An intent to write an item.
    ///
    /// - Parameters:
    ///   - url: The item to write.
    ///   - options: How it is written (accepted for compatibility; no effect in Folio).
    /// - Returns: The intent.
    public class func writingIntent(
      with url: URL, options: NSFileCoordinator.WritingOptions = []
    ) -> Self {
      Self(url: url, isWriting: true, readingOptions: [], writingOptions: options)
    }
  }
#endif
