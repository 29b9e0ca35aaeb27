internal import CZstd

/// The one place libzstd's results are judged.
///
/// Every libzstd function that can fail returns a `size_t` that is either a
/// count or an error code, told apart by `ZSTD_isError`; the error's words
/// come from `ZSTD_getErrorName` ("Allocation error : not enough memory").
enum Zstd {
  /// Checks a result, handing back the count it carries.
  ///
  /// - Parameters:
  ///   - result: What a libzstd function returned.
  ///   - operation: What was attempted, naming the archive.
  /// - Returns: The result, when it is not an error.
  /// - Throws: ``PackagingErrorDomain/Code/compressorFailed`` with libzstd's own words.
  @discardableResult
  static func check(_ result: Int, _ operation: @autoclosure () -> String) throws -> Int {
    guard ZSTD_isError(result) != 0 else { return result }
    throw PackagingError(
      .compressorFailed, "\(operation()): \(String(cString: ZSTD_getErrorName(result)))")
  }
}
