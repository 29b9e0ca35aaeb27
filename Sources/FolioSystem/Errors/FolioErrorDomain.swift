/// What sets one module's errors apart: their codes, their name and the advice Folio has
/// for them.
///
/// Every module's error is a ``FolioFailure`` of the module's domain, so each module
/// declares a domain and names its error after it:
///
/// ```swift
/// public enum PackagingErrorDomain: FolioErrorDomain {
///   public struct Code: FolioErrorCode { … }
///   public static let name = "Folio.PackagingError"
///   public static func recoverySuggestion(for code: Code) -> String? { … }
/// }
///
/// public typealias PackagingError = FolioFailure<PackagingErrorDomain>
///
/// extension PackagingErrorDomain.Code {
///   public static let lockTimeout = Self("lock-timeout")
/// }
/// ```
///
/// The code type is a struct of its own, outside any generic type, so that codes can be
/// `static let` constants. Codes are added to it by its own name: Swift does not extend a
/// generic type's member through an alias, so `extension PackagingError.Code` does not
/// compile, while `PackagingError.Code.lockTimeout` and `case .lockTimeout` do.
public protocol FolioErrorDomain {
  /// The domain's type of stable codes.
  associatedtype Code: FolioErrorCode

  /// The domain's name, such as `Folio.PackagingError`: the domain of the error bridged to
  /// an `NSError`, stable across releases.
  static var name: String { get }

  /// What the person or program can do about a failure with this code, where Folio knows
  /// (Apple's `LocalizedError.recoverySuggestion`, which an alert shows under the
  /// description).
  ///
  /// It names what the library's caller can change, never a command's options: a command
  /// adds those itself.
  ///
  /// - Parameter code: The failure's code.
  /// - Returns: The advice, or `nil` when there is none.
  static func recoverySuggestion(for code: Code) -> String?
}
