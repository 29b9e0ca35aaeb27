public import FolioSystem

/// A failure to pack, expand or list an archive.
///
/// Like every Folio module's error, it is a ``FolioFailure``, of ``PackagingErrorDomain``:
/// a stable `code` (for scripts and tests), a `message` that names the path, entry, line or
/// type involved, and the underlying `cause` (an errno, a library message, another error)
/// when there is one.
public typealias PackagingError = FolioFailure<PackagingErrorDomain>

extension PackagingErrorDomain {
  /// `Folio.PackagingError`, the error's name: the domain of the error bridged to an `NSError`.
  public static let name = "Folio.PackagingError"
}
