internal import CLibArchive
import FoundationEssentials
import Glibc
import PropertyLists
import Synchronization

/// The one place libarchive return codes are judged.
///
/// `ARCHIVE_OK` passes and `ARCHIVE_EOF` is handed back for the caller to
/// test. `ARCHIVE_WARN` is never silently fine: it throws
/// ``PackagingErrorDomain/Code/archiveWarning`` unless the caller passes an
/// ``ArchiveWarningLog``, which records it as a diagnostic. `ARCHIVE_RETRY`,
/// `ARCHIVE_FAILED` and `ARCHIVE_FATAL` throw with `archive_errno` and
/// `archive_error_string`.
enum LibArchive {
  /// Checks a status returned by a libarchive call.
  ///
  /// - Parameters:
  ///   - status: The call's return value.
  ///   - archive: The archive handle, for its error number and string.
  ///   - operation: What was attempted, naming the path or entry
  ///     (`writing header for 'Notebook/pages/a.txt'`).
  ///   - warnings: Where to record warnings instead of throwing, if anywhere.
  /// - Returns: `ARCHIVE_OK`, `ARCHIVE_EOF`, or `ARCHIVE_WARN` when logged.
  /// - Throws: ``PackagingError`` for warnings (when not logged) and failures.
  @discardableResult
  static func check(
    _ status: CInt, _ archive: OpaquePointer?, _ operation: @autoclosure () -> String,
    warnings: ArchiveWarningLog? = nil
  ) throws -> CInt {
    switch status {
    case ARCHIVE_OK, ARCHIVE_EOF:
      return status
    case ARCHIVE_WARN:
      let failure = LibArchiveFailure(status: status, archive: archive)
      if let warnings {
        warnings.record(operation(), failure: failure)
        return status
      }
      throw PackagingError(.archiveWarning, "\(operation()): \(failure.message)", cause: failure)
    case ARCHIVE_FATAL:
      let failure = LibArchiveFailure(status: status, archive: archive)
      throw PackagingError(.archiveFatal, "\(operation()): \(failure.message)", cause: failure)
    default:
      let failure = LibArchiveFailure(status: status, archive: archive)
      throw PackagingError(.archiveFailed, "\(operation()): \(failure.message)", cause: failure)
    }
  }

  /// Checks the result of a call that returns a byte count or a negative status
  /// (`archive_write_data`, `archive_read_data`).
  ///
  /// - Parameters:
  ///   - count: The call's return value.
  ///   - archive: The archive handle.
  ///   - operation: What was attempted, naming the path or entry.
  ///   - warnings: Where to record warnings instead of throwing, if anywhere.
  /// - Returns: The byte count (0 for a logged warning).
  /// - Throws: ``PackagingError`` when the count is negative.
  static func checkCount(
    _ count: Int, _ archive: OpaquePointer?, _ operation: @autoclosure () -> String,
    warnings: ArchiveWarningLog? = nil
  ) throws -> Int {
    if count >= 0 { return count }
    try check(CInt(clamping: count), archive, operation(), warnings: warnings)
    return 0
  }

  /// Makes libarchive convert names as UTF-8 whatever the process locale.
  ///
  /// libarchive converts entry names through the C library's current locale;
  /// in the default "C" locale any non-ASCII name fails ("Can't translate
  /// pathname"). Folio sets `LC_CTYPE` to `C.UTF-8` once, before the first
  /// archive is opened, unless the program already chose a UTF-8 locale.
  static func prepareLocale() {
    _ = localeReady
  }

  private static let localeReady: Bool = {
    if let current = setlocale(LC_CTYPE, nil),
      String(cString: current).uppercased().contains("UTF-8")
    {
      return true
    }
    if setlocale(LC_CTYPE, "C.UTF-8") != nil { return true }
    return setlocale(LC_CTYPE, "C.utf8") != nil
  }()
}

/// What libarchive said about a failed call: its status, errno and message.
struct LibArchiveFailure: Error, Sendable, CustomStringConvertible {
  /// The return code (`ARCHIVE_WARN`, `ARCHIVE_FAILED`, …).
  var status: CInt
  /// `archive_errno`, 0 when libarchive set none.
  var errorNumber: CInt
  /// `archive_error_string`, or a description of the status when empty.
  var message: String

  init(status: CInt, archive: OpaquePointer?) {
    self.status = status
    errorNumber = archive.map { archive_errno($0) } ?? 0
    if let archive, let text = archive_error_string(archive) {
      message = String(cString: text)
    } else {
      message = "the archive library reported a failure without saying why"
    }
  }

  static func name(of status: CInt) -> String {
    switch status {
    case ARCHIVE_WARN: "ARCHIVE_WARN"
    case ARCHIVE_RETRY: "ARCHIVE_RETRY"
    case ARCHIVE_FAILED: "ARCHIVE_FAILED"
    case ARCHIVE_FATAL: "ARCHIVE_FATAL"
    default: "status \(status)"
    }
  }

  /// libarchive's explanation, with the system's for a real errno.
  ///
  /// libarchive also uses `EILSEQ` for "not this format" and `EINVAL` for
  /// misuse, where `strerror` would mislead. No status names such as
  /// `ARCHIVE_FATAL`: this text reaches users.
  var description: String {
    var text = message
    if errorNumber > 0 && errorNumber != EILSEQ && errorNumber != EINVAL {
      let system = String(cString: strerror(errorNumber))
      if !text.contains(system) { text += " (\(system))" }
    }
    return text
  }

  /// Whether libarchive found no format it reads (`ARCHIVE_ERRNO_FILE_FORMAT`).
  var isUnrecognizedFormat: Bool {
    errorNumber == EILSEQ && message.hasPrefix("Unrecognized archive format")
  }
}

/// Collects libarchive warnings where a caller chose to report them as
/// diagnostics rather than fail (a listing, for instance).
final class ArchiveWarningLog: Sendable {
  private let collected = Mutex<[Diagnostic]>([])

  /// The warnings recorded so far, in order.
  var diagnostics: [Diagnostic] { collected.withLock { $0 } }

  func record(_ operation: String, failure: LibArchiveFailure) {
    collected.withLock {
      $0.append(
        Diagnostic(
          severity: .warning, code: "FOLIO-ARCHIVE-WARNING",
          message: "\(operation): \(failure.message)"))
    }
  }
}
