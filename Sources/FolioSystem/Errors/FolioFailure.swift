/// A failure in one of Folio's modules: every module's error is this type, with the
/// module's ``FolioErrorDomain``.
///
/// Like every Folio error (``FolioError``), it carries a stable ``code`` (for scripts and
/// tests), a ``message`` that names the path, entry, line or type involved, and the
/// underlying ``cause`` (an errno, a library message, another error) when there is one.
/// Each module names its own: `PropertyListError`, `UniformTypeError`, `PackagingError`
/// and `ExportError` are `FolioFailure`s of their modules' domains, so a program catches
/// one module's errors by that name:
///
/// ```swift
/// do {
///   try await Expander.expand(archive, into: folder, progress: Subprogress.untracked())
/// } catch let error as PackagingError where error.code == .lockTimeout {
///   print(error.message)
/// }
/// ```
public struct FolioFailure<Domain: FolioErrorDomain>: FolioError {
  /// The domain's type of stable codes.
  public typealias Code = Domain.Code

  /// What kind of failure this is.
  public var code: Code
  /// One line naming what failed and where.
  public var message: String
  /// Where in a source file the failure is, when it has a place.
  public var location: SourceLocation?
  /// The error underneath, such as a system call's errno or a library's message.
  public var cause: (any Error & Sendable)?

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: What kind of failure this is.
  ///   - message: One line naming what failed and where.
  ///   - location: Where in a source file the failure is.
  ///   - cause: The error underneath.
  public init(
    _ code: Code, _ message: String, location: SourceLocation? = nil,
    cause: (any Error & Sendable)? = nil
  ) {
    self.code = code
    self.message = message
    self.location = location
    self.cause = cause
  }

  /// What the person or program can do about the failure, where Folio knows (Apple's
  /// `LocalizedError.recoverySuggestion`, which an alert shows under the description): the
  /// domain's advice for the code.
  public var recoverySuggestion: String? { Domain.recoverySuggestion(for: code) }
}

extension FolioFailure {
  /// The module's error for an output a ``ReplacePolicy`` refused: its code is the
  /// refusal's (`output-exists`, `update-unsupported`) in every module.
  ///
  /// - Parameter refusal: What ``ReplacePolicy/check(outputAt:updatable:)`` found.
  package init(_ refusal: ReplacePolicy.Refusal) {
    self.init(Code(refusal.reason.rawValue), refusal.message)
  }

  /// The one check of an output before any work (``ReplacePolicy/check(outputAt:updatable:)``),
  /// a refusal thrown as the module's error.
  ///
  /// - Parameters:
  ///   - policy: What to do with an existing output.
  ///   - path: The output's path.
  ///   - updatable: Whether the writer can update an output.
  /// - Returns: Whether something is at `path` (to be replaced or updated).
  /// - Throws: The module's `output-exists` or `update-unsupported`.
  package static func check(_ policy: ReplacePolicy, outputAt path: String, updatable: Bool)
    throws(Self) -> Bool
  {
    do {
      return try policy.check(outputAt: path, updatable: updatable)
    } catch {
      throw Self(error)
    }
  }
}
