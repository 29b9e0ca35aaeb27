extension PropertyListValue.Content: Equatable {
  /// Compares content the way ``PropertyListValue`` does: locations ignored, NaN equal to NaN.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    PropertyListValue(lhs) == PropertyListValue(rhs)
  }
}
