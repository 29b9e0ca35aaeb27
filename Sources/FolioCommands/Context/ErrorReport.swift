import Archives
import Documents
import FolioSystem
import FoundationEssentials
import Glibc
import PropertyLists

/// How a failure reads on standard error (or in a JSON `error` event), decided in one place.
///
/// The message names the path, entry or line once and says what was wrong in
/// plain words: a Foundation or libarchive cause is rendered as the system's
/// explanation (`No such file or directory`), never as `Error Domain=…` or
/// `ARCHIVE_FATAL`. Where an option or another command would help, the
/// command layer adds it here (`use --force to replace it`); library messages
/// never name options.
struct ErrorReport: Sendable, Equatable {
  /// The failure's stable code (`output-exists`, `usage`).
  var code: String
  /// The message, without `error: ` and without hint.
  var message: String
  /// What the user can do about it, naming an option or command, if anything.
  var hint: String?
  /// The file the failure concerns, when known.
  var path: String?

  /// The message and hint as one line: `message; hint`.
  var line: String { hint.map { "\(message); \($0)" } ?? message }

  /// Reports an error thrown by a command.
  ///
  /// - Parameters:
  ///   - error: What was thrown.
  ///   - command: The command words (`["folio", "expand"]`), for hints.
  init(_ error: any Error, command: [String] = []) {
    switch error {
    case let error as UsageError:
      self.init(code: "usage", message: error.message)
    case let error as CommandFailure:
      self.init(code: error.code, message: error.message)
    case let error as any FolioError:
      self.init(
        code: error.code.rawValue,
        message: Self.compose(error.location?.description, error.message, error.cause))
    default:
      self.init(code: "failed", message: Self.plain(error))
    }
    hint = Self.hint(for: error, command: command.dropFirst().first ?? "")
  }

  init(code: String, message: String, hint: String? = nil, path: String? = nil) {
    self.code = code
    self.message = message
    self.hint = hint
    self.path = path
  }

  /// `location: message: cause`: the location left out when the message names
  /// its file already, and of a chain of Folio errors (each restating the path)
  /// only the deepest cause in plain words, left out when the message says it.
  private static func compose(
    _ location: String?, _ message: String, _ cause: (any Error & Sendable)?
  ) -> String {
    var text = ""
    if let location, !message.contains(location) { text = location + ": " }
    text += message
    if let cause {
      let plain = Self.plain((cause as? any FolioError)?.rootCause ?? cause)
      if !plain.isEmpty && !text.contains(plain) { text += ": " + plain }
    }
    return text
  }

  /// An error as plain words: a system error as `strerror` says it, a Folio
  /// error as its message, anything else without Foundation's dump.
  static func plain(_ error: any Error) -> String {
    switch error {
    case let error as any FolioError: return error.message
    case let error as POSIXError: return String(cString: strerror(error.code.rawValue))
    case is CancellationError: return "cancelled"
    default: break
    }
    // By domain, as Foundation's NSError reports it (`_domain` and `_code` are what an
    // error bridges to NSError with; an NSError from a program using corelibs Foundation
    // casts to CocoaError whatever its domain, so the cast alone cannot tell).
    switch error._domain {
    case "NSPOSIXErrorDomain":
      return String(cString: strerror(Int32(truncatingIfNeeded: error._code)))
    case "NSCocoaErrorDomain":
      guard let error = error as? CocoaError else { break }
      if let underlying = error.underlying { return plain(underlying) }
      switch error.code {
      case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
      case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
      case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
      case .fileWriteFileExists: return String(cString: strerror(EEXIST))
      case .fileReadCorruptFile: return "the data is damaged"
      case .fileReadInapplicableStringEncoding: return "the text is not in the expected encoding"
      default: return "the file could not be read or written (\(error.code.rawValue))"
      }
    default: break
    }
    // A Swift error describes itself (a system error as strerror says it); a
    // foreign NSError's description would dump its domain and user info.
    let text = String(describing: error)
    if text.contains("Error Domain=") { return "\(error._domain) error \(error._code)" }
    return text
  }

  /// The option or command that would help, for failures that have one.
  ///
  /// Keyed by the library's typed codes, so a code renamed or removed there fails to
  /// compile here. A command's own failures (``CommandFailure``, ``UsageError``) carry their advice in
  /// their message.
  ///
  /// - Parameters:
  ///   - error: What was thrown.
  ///   - command: The subcommand's name (`expand`).
  /// - Returns: The hint, or `nil`.
  private static func hint(for error: any Error, command: String) -> String? {
    switch error {
    case let error as PackagingError: return hint(for: error.code, command: command)
    case let error as ExportError: return hint(for: error.code, command: command)
    case let error as PropertyListError:
      let reading = command == "plist" || command == "validate"
      switch error.code {
      case .inputTooLarge where reading: return "raise the limit with --max-input-size"
      case .outputExists where command == "plist": return "use --force to replace it"
      default: return nil
      }
    default: return nil
    }
  }

  private static func hint(for code: PackagingError.Code, command: String) -> String? {
    let expanding = command == "expand"
    // `verify` applies the expansion's rules and limits, with the same options.
    let checking = expanding || command == "verify"
    let reading = checking || command == "list"
    switch code {
    case .outputExists where expanding:
      return "use --force to replace it, or --update to update it"
    case .outputExists where command == "pack":
      return "use --force to replace it"
    case .nameCollision where expanding:
      return "use --allow-collisions to expand both names"
    case .nameCollision where checking:
      return "use --allow-collisions to accept both names"
    case .expansionTooLarge where reading:
      return "raise the limit with --max-bytes if you trust the archive"
    case .tooManyEntries where checking:
      return "raise the limit with --max-entries if you trust the archive"
    case .invalidNameEncoding where reading:
      return
        "a zip's names can be read in another encoding with --name-encoding (auto, CP932, CP866, KOI8-R, …)"
    case .compressionRatio where reading:
      return "raise the limit with --max-ratio if you trust the archive"
    case .lockTimeout where expanding || command == "pack":
      return "wait longer with --lock-timeout"
    case .inputTooLarge where reading:
      return "raise the limit with --max-input-size"
    case .externalSymlink where command == "pack":
      return "use --allow-external-symlinks to store it as a link"
    default:
      return nil
    }
  }

  private static func hint(for code: ExportError.Code, command: String) -> String? {
    guard command == "export" else { return nil }
    switch code {
    case .outputExists: return "use --force to replace it"
    case .outputIsInput: return "choose another output with -o"
    case .folderCannotStream: return "name an output with -o"
    case .noRoute: return "see 'folio export --list INPUT' for what it can become"
    default: return nil
    }
  }
}
