import Archives
#if !canImport(SwiftUI)
  /// A document type that is read from and written to files: SwiftUI's `Document` for Linux.
  ///
  /// ```swift
  /// @Observable
  /// final class TextDocument: Document {
  ///   static let readableContentTypes = [UTType.plainText]
  ///   var text = ""
  ///   …
  /// }
  /// ```
  public protocol Document: ReadableDocument, WritableDocument {}
#endif
