import FolioSystem
public import FoundationEssentials
import PropertyLists
import UniformTypes

/// Findings a team has accepted for now, so that only new ones fail the run.
///
/// A baseline records each finding by file, rule code and message, without its line and with
/// the line numbers inside the message blurred, so that editing elsewhere in the file does
/// not turn an old finding into a new one. Findings are counted: two identical findings in
/// the baseline hide two in the report, not more. Files are named as the run named them
/// (run from the same folder to match).
public struct ValidationBaseline: Sendable, Hashable {
  /// One accepted finding.
  public struct Finding: Hashable, Sendable, Codable, Comparable {
    /// The file, as the run named it.
    public var file: String
    /// The rule code.
    public var code: String
    /// The message, with line numbers blurred.
    public var message: String

    public static func < (a: Finding, b: Finding) -> Bool {
      (a.file, a.code, a.message) < (b.file, b.code, b.message)
    }
  }

  /// The accepted findings, sorted.
  public var findings: [Finding]

  /// The findings of a report, to accept all of them.
  ///
  /// - Parameter report: What a run found.
  public init(accepting report: ValidationReport) {
    findings = report.diagnostics.map(Self.finding).sorted()
  }

  /// The finding a diagnostic stands for.
  static func finding(_ diagnostic: Diagnostic) -> Finding {
    Finding(
      file: diagnostic.location?.file ?? "", code: diagnostic.code,
      message: blurringNumbers(diagnostic.message))
  }

  /// The message with the numbers of places (`:12:5`, `line 12`, `byte 40`, `@40`) replaced
  /// by `#`, so that a finding survives edits above it.
  static func blurringNumbers(_ message: String) -> String {
    var result = ""
    var index = message.startIndex
    while index < message.endIndex {
      let character = message[index]
      let placeMarker =
        result.hasSuffix(":") || result.hasSuffix("@") || result.hasSuffix("line ")
        || result.hasSuffix("byte ")
      if character.isASCII, character.isNumber, placeMarker {
        while index < message.endIndex, message[index].isASCII, message[index].isNumber {
          index = message.index(after: index)
        }
        result += "#"
        continue
      }
      result.append(character)
      index = message.index(after: index)
    }
    return result
  }

  private struct File: Codable {
    var version: Int
    var findings: [Finding]
  }

  /// The baseline as a JSON document (`{"version":1,"findings":[…]}`), one finding a line.
  public func data() -> Data {
    let data = (try? JSONText.encode(File(version: 1, findings: findings))) ?? Data()
    return data + Data("\n".utf8)
  }

  /// The default size limit of a baseline file: 16 MiB.
  public static let defaultMaximumFileSize = 16 << 20
  /// The default limit of findings a baseline may accept: 100,000.
  public static let defaultMaximumFindingCount = 100_000

  /// Reads a baseline file.
  ///
  /// - Parameters:
  ///   - url: The file.
  ///   - maximumFileSize: The largest file read, in bytes; checked before and while reading.
  ///   - maximumFindingCount: The most findings it may hold.
  /// - Throws: ``UniformTypeError`` with `invalid-configuration` when it cannot be read or is
  ///   not a baseline, `configuration-too-large` naming the file and the limit it passes.
  public init(
    contentsOf url: URL, maximumFileSize: Int = ValidationBaseline.defaultMaximumFileSize,
    maximumFindingCount: Int = ValidationBaseline.defaultMaximumFindingCount
  ) throws {
    let data: Data
    do {
      data = Data(try FileContents.read(atPath: url.path, limit: maximumFileSize))
    } catch .tooLarge(let size) {
      throw UniformTypeError(
        .configurationTooLarge,
        "the baseline \(url.path) is \(size) bytes, more than the limit of \(maximumFileSize) bytes",
        location: SourceLocation(file: url.path))
    } catch .system(let cause) {
      throw UniformTypeError(
        .invalidConfiguration, "cannot read the baseline \(url.path)",
        location: SourceLocation(file: url.path), cause: cause)
    }
    do {
      let file = try JSONDecoder().decode(File.self, from: data)
      guard file.version == 1 else {
        throw UniformTypeError(
          .invalidConfiguration,
          "the baseline \(url.path) has version \(file.version); this Folio reads version 1")
      }
      guard file.findings.count <= maximumFindingCount else {
        throw UniformTypeError(
          .configurationTooLarge,
          "the baseline \(url.path) holds \(file.findings.count) findings, more than the limit of \(maximumFindingCount)",
          location: SourceLocation(file: url.path))
      }
      findings = file.findings.sorted()
    } catch let error as UniformTypeError {
      throw error
    } catch {
      throw UniformTypeError(
        .invalidConfiguration,
        "\(url.path) is not a Folio baseline (a JSON object with version and findings)",
        location: SourceLocation(file: url.path))
    }
  }

  /// A report without the findings this baseline accepts.
  ///
  /// - Parameter report: What a run found.
  /// - Returns: The report with only new findings, and its count of accepted ones.
  public func filtering(_ report: ValidationReport) -> ValidationReport {
    var remaining: [Finding: Int] = [:]
    for finding in findings { remaining[finding, default: 0] += 1 }
    var kept: [Diagnostic] = []
    var known = 0
    for diagnostic in report.diagnostics {
      let finding = Self.finding(diagnostic)
      if let count = remaining[finding], count > 0 {
        remaining[finding] = count - 1
        known += 1
      } else {
        kept.append(diagnostic)
      }
    }
    var filtered = report
    filtered.diagnostics = kept
    filtered.baselined += known
    return filtered
  }
}
