extension PackagingErrorDomain {
  /// What the person or program can do about a failure with this code, where Folio knows
  /// (Apple's `LocalizedError.recoverySuggestion`, which an alert shows under the description).
  ///
  /// It names what the library's caller can change (the expansion mode, a policy's
  /// limit), never a command's options: a command adds those itself.
  ///
  /// - Parameter code: The failure's code.
  /// - Returns: The advice, or `nil` where Folio has none.
  public static func recoverySuggestion(for code: Code) -> String? {
    switch code {
    case .outputExists:
      "Choose another output, or replace or update the one there."
    case .nameCollision:
      "Allow colliding names in the expansion policy to expand both, on a file system that tells them apart."
    case .expansionTooLarge, .tooManyEntries, .compressionRatio:
      "If you trust the archive, raise the expansion policy's limit."
    case .lockTimeout:
      "Another program is working on the package; try again when it is done, or wait longer for it."
    case .externalSymlink:
      "Remove the link, or allow links that point outside the package to store it as a link."
    case .invalidNameEncoding:
      "Read the archive's names in the encoding it was written with (such as CP932 or CP866)."
    case .fileVanished, .fileReplaced:
      "Read the file wrapper again from the item as it is now."
    case .encryptedEntry:
      "Decrypt the archive with the tool that made it, then expand the result."
    case .unsupportedCompression:
      "Recompress the archive with deflate, or as a tar with gzip, xz or zstd."
    default:
      nil
    }
  }
}
