public import Foundation

// Bridging to NSError needs corelibs Foundation's CustomNSError, which the layers (on
// FoundationEssentials only) cannot name; the umbrella adds it for programs that import Folio.

extension FolioFailure: CustomNSError {
  /// The domain's name, such as `Folio.PackagingError`.
  public static var errorDomain: String { Domain.name }

  /// A stable number for the stable ``code``.
  ///
  /// Codes are strings and `NSError` wants an integer: FNV-1a of the spelling, kept to 31
  /// bits so it is a positive `Int` everywhere.
  public var errorCode: Int {
    var hash: UInt32 = 2_166_136_261
    for byte in code.rawValue.utf8 {
      hash ^= UInt32(byte)
      hash = hash &* 16_777_619
    }
    return Int(hash & 0x7FFF_FFFF)
  }

  /// The description, the code's spelling, the recovery suggestion when there is one, and the
  /// cause as `NSUnderlyingErrorKey`.
  public var errorUserInfo: [String: Any] {
    var info: [String: Any] = [
      NSLocalizedDescriptionKey: description, "FolioErrorCode": code.rawValue,
    ]
    if let recoverySuggestion { info[NSLocalizedRecoverySuggestionErrorKey] = recoverySuggestion }
    if let cause { info[NSUnderlyingErrorKey] = cause as NSError }
    return info
  }
}

extension SystemError: CustomNSError {
  /// `NSPOSIXErrorDomain`, where Apple's APIs put an `errno`.
  public static var errorDomain: String { NSPOSIXErrorDomain }
  /// The `errno` value.
  public var errorCode: Int { Int(errno) }
  /// The system's text.
  public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}
