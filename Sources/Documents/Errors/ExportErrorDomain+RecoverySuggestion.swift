extension ExportErrorDomain {
  /// What the person or program can do about a failure with this code, where Folio knows
  /// (Apple's `LocalizedError.recoverySuggestion`, which an alert shows under the description).
  ///
  /// - Parameter code: The failure's code.
  /// - Returns: The advice, or `nil` where Folio has none.
  public static func recoverySuggestion(for code: Code) -> String? {
    switch code {
    case .outputExists: "Choose another output, or allow replacing it."
    case .updateUnsupported: "Replace the output instead: an export is written whole."
    case .outputIsInput: "Choose an output other than the input."
    case .untitledDocument: "Save the document to a file first."
    case .documentBusy: "Wait for the document's current read or save to finish."
    default: nil
    }
  }
}
