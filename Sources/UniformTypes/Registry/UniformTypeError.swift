public import FolioSystem

/// A failure to load type declarations or to answer a type question.
///
/// Like every Folio module's error, it is a ``FolioFailure``, of ``UniformTypeErrorDomain``:
/// a stable `code` (for scripts and tests), a `message` that names the path, entry, line or
/// type involved, and the underlying `cause` (an errno, a library message, another error)
/// when there is one.
public typealias UniformTypeError = FolioFailure<UniformTypeErrorDomain>

extension UniformTypeErrorDomain {
  /// `Folio.UniformTypeError`, the error's name: the domain of the error bridged to an `NSError`.
  public static let name = "Folio.UniformTypeError"
}
