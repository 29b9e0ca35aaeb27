extension UniformTypeErrorDomain {
  /// What the person or program can do about a failure with this code, where Folio knows
  /// (Apple's `LocalizedError.recoverySuggestion`, which an alert shows under the description).
  ///
  /// - Parameter code: The failure's code.
  /// - Returns: The advice, or `nil` where Folio has none.
  public static func recoverySuggestion(for code: Code) -> String? {
    switch code {
    case .unknownType: "Register the declarations that declare the type, or check its spelling."
    default: nil
    }
  }
}
