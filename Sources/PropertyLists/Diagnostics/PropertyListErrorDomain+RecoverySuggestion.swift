extension PropertyListErrorDomain {
  /// What the person or program can do about a failure with this code, where Folio knows
  /// (Apple's `LocalizedError.recoverySuggestion`, which an alert shows under the description).
  ///
  /// - Parameter code: The failure's code.
  /// - Returns: The advice, or `nil` where Folio has none.
  public static func recoverySuggestion(for code: Code) -> String? {
    switch code {
    case .inputTooLarge: "If you trust the file, raise the size limit."
    case .tooDeep: "If you trust the file, raise the nesting limit."
    case .unrepresentable: "Write the property list as XML or binary, which hold every value."
    case .outputExists: "Choose another output, or allow replacing it."
    case .updateUnsupported: "Replace the file instead: a property list is written whole."
    default: nil
    }
  }
}
