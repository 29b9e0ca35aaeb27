extension PropertyListError {
  /// What the person or program can do about the failure, where Folio knows (Apple's
  /// `LocalizedError.recoverySuggestion`, which an alert shows under the description).
  public var recoverySuggestion: String? {
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
