public import FolioSystem

/// A failure to read or write a property list.
///
/// Like every Folio module's error, it is a ``FolioFailure``, of ``PropertyListErrorDomain``:
/// a stable `code` (for scripts and tests), a `message` that names the path, entry, line or
/// type involved, and the underlying `cause` (an errno, a library message, another error)
/// when there is one.
public typealias PropertyListError = FolioFailure<PropertyListErrorDomain>

extension PropertyListErrorDomain {
  /// `Folio.PropertyListError`, the error's name: the domain of the error bridged to an `NSError`.
  public static let name = "Folio.PropertyListError"
}
