import FolioSystem
public import FoundationEssentials
import PropertyLists
import UniformTypes

/// A team's settings for `folio validate`, from a `.folio.yml` or `.folio.json` file.
///
/// ```yaml
/// # .folio.yml
/// disable: [missing-handler-rank]
/// warning: [undeclared-content-type]
/// error:
///   - duplicate-extension
/// define:
///   PRODUCT_BUNDLE_IDENTIFIER: com.example.app
/// baseline: folio-baseline.json
/// exclude: [Vendor, "Tests/Fixtures"]
/// strict: true
/// ```
///
/// `disable`, `warning` and `error` list rule codes; `define` gives build variables (and
/// preprocessor macros) values; `baseline` names a baseline file, relative to the configuration
/// file; `exclude` names folders (relative to the configuration file, or a bare name matching
/// any folder) that a folder walk skips; `strict`, `schema` and `preprocess` switch those checks
/// on or off. The same keys make a JSON object in `.folio.json`. An unknown key or rule code is
/// an error naming its line.
public struct ValidationConfiguration: Sendable {
  /// The names looked for, in this order, in each folder.
  public static let fileNames = [".folio.yml", ".folio.yaml", ".folio.json"]

  /// The rule settings.
  public var rules = RuleConfiguration()
  /// Build-variable values.
  public var definitions: [String: String] = [:]
  /// The baseline file, resolved against the configuration file's folder.
  public var baseline: URL?
  /// Folders a folder walk skips: paths relative to the configuration file's folder (made
  /// absolute here), or bare folder names that match anywhere.
  public var excludedPaths: [URL] = []
  /// Bare folder names that a folder walk skips wherever they are.
  public var excludedNames: [String] = []
  /// Whether warnings fail the run, when the file says.
  public var strict: Bool?
  /// Whether the schema pass runs, when the file says.
  public var schema: Bool?
  /// Whether C preprocessor templates are preprocessed, when the file says.
  public var preprocess: Bool?
  /// The file these settings came from.
  public var file: URL?

  /// Creates empty settings.
  public init() {}

  static let keys = [
    "disable", "warning", "error", "define", "baseline", "exclude", "strict", "schema",
    "preprocess",
  ]

  /// The first configuration file in a folder or any folder above it.
  ///
  /// - Parameter folder: Where to start (normally the working folder).
  /// - Returns: The file, or `nil` when no folder up to the root holds one.
  /// - Throws: ``UniformTypeError`` with `invalid-configuration` when one folder holds more than
  ///   one of ``fileNames``.
  public static func find(from folder: URL) throws -> URL? {
    var current = folder.standardizedFileURL
    while true {
      let present = fileNames.map { current.appendingPathComponent($0) }.filter {
        FileManager.default.fileExists(atPath: $0.path)
      }
      if present.count > 1 {
        throw UniformTypeError(
          .invalidConfiguration,
          "\(current.path) holds \(present.map(\.lastPathComponent).joined(separator: " and ")); keep one"
        )
      }
      if let found = present.first { return found }
      let parent = current.deletingLastPathComponent()
      if parent.path == current.path { return nil }
      current = parent
    }
  }

  /// The default size limit of a configuration file: 1 MiB, thousands of times a real one.
  public static let defaultMaximumFileSize = 1 << 20

  /// Reads a configuration file: YAML (Folio's subset) for `.yml`/`.yaml`, JSON otherwise.
  ///
  /// - Parameters:
  ///   - url: The file.
  ///   - displayName: The name used in error locations; the path when `nil`.
  ///   - maximumFileSize: The largest file read, in bytes; checked before and while reading.
  /// - Returns: The settings.
  /// - Throws: ``UniformTypeError`` with `invalid-configuration`, naming the line of an unknown
  ///   key, rule code or malformed value; `configuration-too-large` naming the file and the limit.
  public static func load(
    from url: URL, displayName: String? = nil,
    maximumFileSize: Int = ValidationConfiguration.defaultMaximumFileSize
  ) throws -> ValidationConfiguration {
    let name = displayName ?? url.path
    let data: Data
    do {
      data = Data(try FileContents.read(atPath: url.path, limit: maximumFileSize))
    } catch .tooLarge(let size) {
      throw UniformTypeError(
        .configurationTooLarge,
        "the configuration \(name) is \(size) bytes, more than the limit of \(maximumFileSize) bytes",
        location: SourceLocation(file: name))
    } catch .system(let cause) {
      throw UniformTypeError(
        .invalidConfiguration, "cannot read the configuration \(name)",
        location: SourceLocation(file: name), cause: cause)
    }
    let root: PropertyListValue
    if ["yml", "yaml"].contains(url.pathExtension.lowercased()) {
      root = try YAMLSubsetReader.read(String(decoding: data, as: UTF8.self), file: name)
    } else {
      let document: PropertyListDocument
      do {
        document = try PropertyListReader.read(data, file: name)
      } catch let error as PropertyListError {
        throw UniformTypeError(
          .invalidConfiguration, "the configuration is not valid JSON: \(error.message)",
          location: error.location ?? SourceLocation(file: name))
      }
      guard document.format == .json else {
        throw UniformTypeError(
          .invalidConfiguration, "the configuration is not JSON",
          location: SourceLocation(file: name))
      }
      root = document.root
    }
    var configuration = try ValidationConfiguration(root, folder: url.deletingLastPathComponent())
    configuration.file = url
    return configuration
  }

  /// Settings from a decoded configuration document.
  init(_ root: PropertyListValue, folder: URL) throws {
    guard let entries = root.dictionaryEntries else {
      throw Self.failure("the configuration must be a mapping of keys to values", at: root)
    }
    var listed: [String: (list: String, location: SourceLocation?)] = [:]
    for entry in entries {
      let at = entry.value
      switch entry.key {
      case "disable", "warning", "error":
        let setting: RuleConfiguration.Setting =
          switch entry.key {
          case "disable": .disabled
          case "warning": .severity(.warning)
          default: .severity(.error)
          }
        for item in try Self.strings(entry) {
          if let earlier = listed[item.value] {
            throw Self.failure(
              "the rule \(item.value) is listed under both \(earlier.list) and \(entry.key)",
              at: item.location)
          }
          listed[item.value] = (entry.key, item.location)
          do {
            try rules.set(setting, for: item.value)
          } catch let error as UniformTypeError {
            throw UniformTypeError(error.code, error.message, location: item.location)
          }
        }
      case "define":
        guard let pairs = at.dictionaryEntries else {
          throw Self.failure("define must be a mapping of NAME: value", at: at)
        }
        for pair in pairs {
          switch pair.value.content {
          case .string(let text): definitions[pair.key] = text
          case .integer(let number): definitions[pair.key] = String(number)
          case .boolean(let flag): definitions[pair.key] = flag ? "YES" : "NO"
          default:
            throw Self.failure("the value of \(pair.key) must be a string", at: pair.value)
          }
        }
      case "baseline":
        guard let path = at.stringValue, !path.isEmpty else {
          throw Self.failure("baseline must be a path", at: at)
        }
        baseline = URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL
      case "exclude":
        for item in try Self.strings(entry) {
          let path = item.value.hasSuffix("/") ? String(item.value.dropLast()) : item.value
          if path.contains("/") {
            excludedPaths.append(URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL)
          } else {
            excludedNames.append(path)
          }
        }
      case "strict", "schema", "preprocess":
        guard let flag = at.boolValue else {
          throw Self.failure("\(entry.key) must be true or false", at: at)
        }
        switch entry.key {
        case "strict": strict = flag
        case "schema": schema = flag
        default: preprocess = flag
        }
      default:
        let closest = Self.keys.min { editDistance($0, entry.key) < editDistance($1, entry.key) }
        var message = "unknown key \(DiagnosticText.quoted(entry.key))"
        if let closest, editDistance(closest, entry.key) <= 2 {
          message += "; did you mean \(closest)?"
        } else {
          message += "; the keys are \(Self.keys.joined(separator: ", "))"
        }
        throw UniformTypeError(
          .invalidConfiguration, message, location: entry.keyLocation ?? entry.value.location)
      }
    }
  }

  private static func strings(_ entry: PropertyListValue.DictionaryEntry) throws -> [Located<
    String
  >] {
    if let text = entry.value.stringValue { return [Located(text, location: entry.value.location)] }
    guard let items = entry.value.arrayValue else {
      throw failure("\(entry.key) must be a list of names", at: entry.value)
    }
    return try items.map { item in
      guard let text = item.stringValue else {
        throw failure("each item of \(entry.key) must be a name", at: item)
      }
      return Located(text, location: item.location)
    }
  }

  private static func failure(_ message: String, at value: PropertyListValue) -> UniformTypeError {
    failure(message, at: value.location)
  }

  private static func failure(_ message: String, at location: SourceLocation?) -> UniformTypeError {
    UniformTypeError(.invalidConfiguration, message, location: location)
  }
}
