import Archives

extension SharedOptions {
  /// `-j, --jobs N`: how many threads compress, expand and flush.
  static let jobs = Option.integer(
    "jobs", short: "j", in: 1...1024,
    help: "How many threads to use (default: FOLIO_JOBS, else the cores this process may use).")

  /// The number of jobs: `--jobs`, else `FOLIO_JOBS`, else `nil` (the library's default,
  /// the processors the process may use).
  ///
  /// - Parameters:
  ///   - option: The value of ``jobs``, if given.
  ///   - environment: The environment, for `FOLIO_JOBS`.
  /// - Returns: The count, or `nil` for the default.
  /// - Throws: ``UsageError`` when `FOLIO_JOBS` is not a count from 1 to 1024.
  static func resolvedJobs(_ option: Int?, environment: [String: String]) throws -> Int? {
    if let option { return option }
    guard let text = environment["FOLIO_JOBS"], !text.isEmpty else { return nil }
    guard let count = Int(text), (1...1024).contains(count) else {
      throw UsageError("invalid FOLIO_JOBS '\(text)': expected an integer from 1 to 1024")
    }
    return count
  }
}
