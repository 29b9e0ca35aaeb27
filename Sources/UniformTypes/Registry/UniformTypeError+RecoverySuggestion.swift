extension UniformTypeError {
  /// What the person or program can do about the failure, where Folio knows (Apple's
  /// `LocalizedError.recoverySuggestion`, which an alert shows under the description).
  public var recoverySuggestion: String? {
    switch code {
    case .unknownType: "Register the declarations that declare the type, or check its spelling."
    default: nil
    }
  }
}
