public import FolioSystem

/// A failure to export a document into another content type.
///
/// Like every Folio module's error, it is a ``FolioFailure``, of ``ExportErrorDomain``:
/// a stable `code` (for scripts and tests), a `message` that names the path, entry, line or
/// type involved, and the underlying `cause` (an errno, a library message, another error)
/// when there is one.
public typealias ExportError = FolioFailure<ExportErrorDomain>

extension ExportErrorDomain {
  /// `Folio.ExportError`, the error's name: the domain of the error bridged to an `NSError`.
  public static let name = "Folio.ExportError"
}
