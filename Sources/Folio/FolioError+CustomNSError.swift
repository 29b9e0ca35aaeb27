public import Foundation

// Bridging to NSError needs corelibs Foundation's CustomNSError, which the layers (on
// FoundationEssentials only) cannot name; the umbrella adds it for programs that import Folio.

extension FolioError {
  /// A stable number for a stable code.
  ///
  /// Codes are strings and `NSError` wants an integer: FNV-1a of the spelling, kept to 31
  /// bits so it is a positive `Int` everywhere.
  static func bridgedCode(_ spelling: String) -> Int {
    var hash: UInt32 = 2_166_136_261
    for byte in spelling.utf8 {
      hash ^= UInt32(byte)
      hash = hash &* 16_777_619
    }
    return Int(hash & 0x7FFF_FFFF)
  }

  /// The user info of the bridged `NSError`: the description, the recovery suggestion
  /// when there is one, and the cause as `NSUnderlyingErrorKey`.
  var bridgedUserInfo: [String: Any] {
    var info: [String: Any] = [
      NSLocalizedDescriptionKey: description, "FolioErrorCode": code.rawValue,
    ]
    if let recoverySuggestion { info[NSLocalizedRecoverySuggestionErrorKey] = recoverySuggestion }
    if let cause { info[NSUnderlyingErrorKey] = cause as NSError }
    return info
  }
}

extension PropertyListError: CustomNSError {
  /// `Folio.PropertyListError`.
  public static var errorDomain: String { "Folio.PropertyListError" }
  /// A stable number for `PropertyListError.code`.
  public var errorCode: Int { Self.bridgedCode(code.rawValue) }
  /// The description and the underlying error.
  public var errorUserInfo: [String: Any] { bridgedUserInfo }
}

extension UniformTypeError: CustomNSError {
  /// `Folio.UniformTypeError`.
  public static var errorDomain: String { "Folio.UniformTypeError" }
  /// A stable number for `UniformTypeError.code`.
  public var errorCode: Int { Self.bridgedCode(code.rawValue) }
  /// The description and the underlying error.
  public var errorUserInfo: [String: Any] { bridgedUserInfo }
}

extension PackagingError: CustomNSError {
  /// `Folio.PackagingError`.
  public static var errorDomain: String { "Folio.PackagingError" }
  /// A stable number for `PackagingError.code`.
  public var errorCode: Int { Self.bridgedCode(code.rawValue) }
  /// The description and the underlying error.
  public var errorUserInfo: [String: Any] { bridgedUserInfo }
}

extension ExportError: CustomNSError {
  /// `Folio.ExportError`.
  public static var errorDomain: String { "Folio.ExportError" }
  /// A stable number for `ExportError.code`.
  public var errorCode: Int { Self.bridgedCode(code.rawValue) }
  /// The description and the underlying error.
  public var errorUserInfo: [String: Any] { bridgedUserInfo }
}

extension SystemError: CustomNSError {
  /// `NSPOSIXErrorDomain`, where Apple's APIs put an `errno`.
  public static var errorDomain: String { NSPOSIXErrorDomain }
  /// The `errno` value.
  public var errorCode: Int { Int(errno) }
  /// The system's text.
  public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}
