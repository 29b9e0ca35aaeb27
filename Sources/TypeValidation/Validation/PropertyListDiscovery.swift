import FolioSystem
public import FoundationEssentials
public import PropertyLists
import UniformTypes

/// Finds the property lists under a folder that `folio validate DIR` checks.
///
/// Kept: every `Info.plist` and `*-Info.plist`, and every other `*.plist` whose bytes name one
/// of the declaration keys (`UTExportedTypeDeclarations`, `UTImportedTypeDeclarations`,
/// `CFBundleDocumentTypes`; the keys are ASCII in every format, binary included). Skipped:
/// build and dependency folders (``skippedFolderNames``), folders the caller excludes, and
/// symbolic links (a link is never followed, so a walk stays inside the folder and ends).
public enum PropertyListDiscovery {
  /// Folders that hold build products, dependencies or version-control data, never sources.
  public static let skippedFolderNames: Set<String> = [
    ".build", "build", "DerivedData", "Pods", "Carthage", "node_modules", ".git", ".svn", ".hg",
    ".swiftpm", "xcuserdata", ".gradle", "vendor",
  ]

  /// The keys that make any `*.plist` worth validating.
  static let declarationKeys = [
    "UTExportedTypeDeclarations", "UTImportedTypeDeclarations", "CFBundleDocumentTypes",
  ].map { Data($0.utf8) }

  /// The deepest folder nesting walked.
  public static let maximumDepth = 128

  /// What a walk found.
  public struct Result: Sendable {
    /// The files to validate, sorted by path.
    public var inputs: [TypeDeclarationValidator.Input]
    /// Folders or files that could not be read, as `unreadable-file` errors.
    public var problems: [Diagnostic]
  }

  /// Walks a folder.
  ///
  /// - Parameters:
  ///   - folder: The folder.
  ///   - displayName: How the user named it; found files are named `displayName/relative/path`.
  ///   - excludedNames: Folder names skipped wherever they are, besides ``skippedFolderNames``.
  ///   - excludedPaths: Folders skipped, by absolute path.
  ///   - maximumSize: Files larger than this are validated (and refused by the reader) only
  ///     when their name says Info.plist; others are not read to look for keys.
  /// - Returns: The files and the problems met.
  public static func find(
    in folder: URL, displayName: String, excludedNames: [String] = [],
    excludedPaths: [URL] = [],
    maximumSize: Int = PropertyListReadOptions.defaultMaximumInputSize
  ) -> Result {
    var result = Result(inputs: [], problems: [])
    let skipped = skippedFolderNames.union(excludedNames)
    let excluded = Set(excludedPaths.map { $0.standardizedFileURL.path })
    let prefix = displayName.hasSuffix("/") ? String(displayName.dropLast()) : displayName
    walk(
      folder.standardizedFileURL, relative: "", depth: 0, prefix: prefix, skipped: skipped,
      excluded: excluded, maximumSize: maximumSize, into: &result)
    result.inputs.sort { Array($0.displayName.utf8).lexicographicallyPrecedes($1.displayName.utf8) }
    return result
  }

  private static func walk(
    _ folder: URL, relative: String, depth: Int, prefix: String, skipped: Set<String>,
    excluded: Set<String>, maximumSize: Int, into result: inout Result
  ) {
    let shown = relative.isEmpty ? prefix : "\(prefix)/\(relative)"
    guard depth < maximumDepth else {
      result.problems.append(
        ValidationRule.unreadableFile.diagnostic(
          "\(DiagnosticText.escaped(shown)) is nested more than \(maximumDepth) folders deep; not walked",
          at: SourceLocation(file: shown)))
      return
    }
    let names: [String]
    do {
      names = try FolderListing.names(atPath: folder.path)
    } catch {
      result.problems.append(
        ValidationRule.unreadableFile.diagnostic(
          "cannot list the folder \(DiagnosticText.escaped(shown)): \(error)",
          at: SourceLocation(file: shown), hint: "check its permissions"))
      return
    }
    for name in names.sorted(by: { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }) {
      let url = folder.appendingPathComponent(name)
      let path = relative.isEmpty ? name : "\(relative)/\(name)"
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
        let type = attributes[.type] as? FileAttributeType
      else { continue }
      switch type {
      case .typeDirectory:
        if skipped.contains(name) || excluded.contains(url.standardizedFileURL.path) { continue }
        walk(
          url, relative: path, depth: depth + 1, prefix: prefix, skipped: skipped,
          excluded: excluded, maximumSize: maximumSize, into: &result)
      case .typeRegular:
        guard name.hasSuffix(".plist") else { continue }
        let display = "\(prefix)/\(path)"
        if name == "Info.plist" || name.hasSuffix("-Info.plist") {
          result.inputs.append(.init(url: url, displayName: display))
        } else if let size = attributes[.size] as? Int, size <= maximumSize,
          let data = try? Data(contentsOf: url),
          declarationKeys.contains(where: { data.firstRange(of: $0) != nil })
        {
          result.inputs.append(.init(url: url, displayName: display))
        }
      default:
        continue
      }
    }
  }
}
