public import FolioSystem

/// The domain of ``PackagingError``: its codes, its ``name`` and, in
/// ``recoverySuggestion(for:)``, the advice Folio has for them.
public enum PackagingErrorDomain: FolioErrorDomain {
  /// A stable identifier for a kind of failure; new codes never break callers.
  public struct Code: FolioErrorCode {
    /// The code's stable spelling, such as `unsafe-entry-path`.
    public let rawValue: String

    /// Creates a code from its stable spelling.
    ///
    /// - Parameter rawValue: The code's spelling.
    public init(_ rawValue: String) { self.rawValue = rawValue }
  }
}
