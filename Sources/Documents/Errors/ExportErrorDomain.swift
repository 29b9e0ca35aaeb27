public import FolioSystem

/// The domain of ``ExportError``: its codes, its ``name`` and, in
/// ``recoverySuggestion(for:)``, the advice Folio has for them.
public enum ExportErrorDomain: FolioErrorDomain {
  /// A stable identifier for a kind of failure; new codes never break callers.
  public struct Code: FolioErrorCode {
    /// The code's stable spelling, such as `no-route`.
    public let rawValue: String

    /// Creates a code from its stable spelling.
    ///
    /// - Parameter rawValue: The code's spelling.
    public init(_ rawValue: String) { self.rawValue = rawValue }
  }
}
