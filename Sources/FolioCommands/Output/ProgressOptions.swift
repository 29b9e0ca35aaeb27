import Archives
import PropertyLists

/// The options every command that shows progress declares, so their help agrees.
enum ProgressOptions {
  /// `--progress MODE`, read by ``ProgressDisplay/mode(progress:quiet:sink:)``.
  static let mode = Option.choice(
    "progress", valueName: "MODE", of: ProgressDisplay.Mode.self,
    help:
      "json: one JSON event per line on standard error (Schemas/progress-events.schema.json); live or none."
  )

  /// `-q, --quiet`, the companion of ``mode``.
  static let quiet = Option.flag("quiet", short: "q", help: "Print no progress and no summary.")
}

/// Options several commands share, declared once.
enum SharedOptions {
  /// `--declarations FILE`, repeatable: extra type declarations for the registry.
  static let declarations = Option.repeating(
    "declarations", valueName: "FILE", completion: .file,
    help: "Also load types declared in FILE (an Info.plist); may repeat.")

  /// `--include GLOB`, repeatable: only entries matching one of them.
  static let include = Option.repeating(
    "include", valueName: "GLOB",
    help:
      "Only entries matching GLOB (.gitignore rules: *, ?, [a-z], ** across folders); may repeat.")

  /// `--name-encoding ENC`: how zip names without the UTF-8 flag are read.
  static let nameEncoding = Option.string(
    "name-encoding", valueName: "ENC",
    help:
      "Read zip names without the UTF-8 flag as ENC (any iconv encoding: CP932, CP866, KOI8-R, EUC-JP…), or 'auto' to pick the one that reads every name; default CP437 unless UTF-8."
  )

  /// The encoding `--name-encoding` names.
  ///
  /// - Parameter value: The option's value, if given.
  /// - Returns: The encoding (the specification's when not given).
  /// - Throws: ``UsageError`` for an encoding iconv does not know.
  static func nameEncoding(_ value: String?) throws -> ZipNameEncoding {
    guard let value else { return .specification }
    do {
      return try ZipNameEncoding(value)
    } catch let error as PackagingError {
      throw UsageError("--name-encoding: \(error.message)")
    }
  }

  /// `--exclude GLOB`, repeatable: leave matching entries out.
  static let exclude = Option.repeating(
    "exclude", valueName: "GLOB",
    help: "Leave out entries matching GLOB, and everything inside a matching folder; may repeat.")

  /// The selection the usual options ask for, a bad glob being a usage error.
  static func selection(paths: [String] = [], include: [String], exclude: [String]) throws
    -> PathSelection
  {
    do {
      return try PathSelection(paths: paths, including: include, excluding: exclude)
    } catch let error as PackagingError {
      throw UsageError(error.message)
    }
  }

  /// `--max-input-size SIZE`: the property-list size limit, checked before reading.
  static let maxInputSize = Option.byteCount(
    "max-input-size",
    help:
      "Refuse property lists larger than SIZE, before reading them (default 16M; K, M, G suffixes)."
  )

  /// `--max-input-size SIZE` of `expand` and `list`: the size limit of a zip or 7-Zip
  /// archive read from a stream, which is copied to a temporary file first.
  static let maxArchiveInputSize = Option.byteCount(
    "max-input-size",
    help:
      "Refuse a zip or 7-Zip archive read from a pipe or inside a compression past SIZE bytes, the copy it needs (default 4G; K, M, G, T suffixes)."
  )

  // The limits and the collision rule an expansion applies, which `verify` applies too.

  /// `--max-bytes SIZE`: the most bytes an archive's entries may hold in total.
  static let maxExpandedBytes = Option.byteCount(
    "max-bytes",
    help: "Refuse to expand more than SIZE bytes in total (default 16G; K, M, G, T suffixes).")
  /// `--max-entries N`: the most entries an archive may declare.
  static let maxEntries = Option.integer(
    "max-entries", in: 1...Int(Int32.max),
    help: "Refuse archives with more than N entries (default 1000000).")
  /// `--max-ratio N`: the most an entry's data may expand over its compressed size.
  static let maxExpansionRatio = Option.integer(
    "max-ratio", in: 1...1_000_000_000,
    help: "Refuse data expanding more than N times its compressed size (default 1000).")
  /// `--allow-collisions`: names differing only by case or normalisation are allowed.
  static let allowCollisions = Option.flag(
    "allow-collisions", help: "Allow names that differ only by case or Unicode normalisation.")

  /// The expansion policy those options, `--max-input-size` and `--name-encoding` give,
  /// the rest default.
  ///
  /// - Parameter arguments: The command's parsed arguments, which declare all six.
  /// - Returns: The policy.
  /// - Throws: ``UsageError`` for a value out of range or an unknown encoding.
  static func expansionRules(_ arguments: ParsedArguments) throws -> ExpansionPolicy {
    var policy = ExpansionPolicy.default
    if let bytes = try arguments[maxExpandedBytes] { policy.maxTotalBytes = bytes }
    if let entries = try arguments[maxEntries] { policy.maxEntryCount = entries }
    if let ratio = try arguments[maxExpansionRatio] {
      policy.maxCompressionRatio = Double(ratio)
    }
    if let size = try arguments[maxArchiveInputSize] { policy.maxInputSize = size }
    policy.allowsNameCollisions = try arguments[allowCollisions]
    policy.nameEncoding = try nameEncoding(arguments[nameEncoding])
    return policy
  }

  /// `--max-values N`: the most values a text property list may hold.
  static let maxValues = Option.integer(
    "max-values", in: 1...Int(Int32.max),
    help: "Refuse property lists holding more than N values (default 1000000).")

  /// The read options a command's `--max-input-size` and `--max-values` ask for.
  static func readOptions(_ arguments: ParsedArguments) throws -> PropertyListReadOptions {
    var options = PropertyListReadOptions()
    if let size = try arguments[maxInputSize] {
      options.maximumInputSize = Int(clamping: size)
    }
    if let count = try arguments[maxValues] { options.maximumValueCount = count }
    return options
  }

  /// `--lock-timeout SECONDS`.
  static func lockTimeout(on what: String) -> Option<Duration?> {
    .seconds(
      "lock-timeout",
      help: "How long to wait for another process's lock on \(what) (default 30).")
  }
}
