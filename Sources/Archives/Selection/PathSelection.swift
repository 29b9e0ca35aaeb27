/// Which entries of a package or archive an operation takes: named paths,
/// `--include` and `--exclude` globs (``PathPattern``).
///
/// A path is selected when no exclusion matches it (or a folder above it)
/// and, if any paths or inclusions are given, one of them names it or a
/// folder above it. Archive entry names are matched as written and also
/// below their top folder, so `pages/*.txt` selects
/// `Notebook.examplenotebook/pages/a.txt`: patterns name paths inside the
/// package, as `folio pack` sees them.
///
/// ```swift
/// var policy = ExpansionPolicy.default
/// policy.selection = try PathSelection(paths: ["pages"], excluding: ["*.tmp"])
/// ```
public struct PathSelection: Hashable, Sendable {
  /// Entries named exactly (with everything below them).
  public var paths: [String]
  /// Globs an entry must match (one of them), when any are given.
  public var inclusions: [PathPattern]
  /// Globs no entry may match.
  public var exclusions: [PathPattern]

  /// Everything.
  public static let everything = PathSelection()

  /// Creates a selection.
  ///
  /// - Parameters:
  ///   - paths: Entries named exactly (`pages/a.txt`, `pages`), with everything below them.
  ///   - inclusions: Globs of which an entry must match one, when given.
  ///   - exclusions: Globs no entry may match.
  public init(
    paths: [String] = [], including inclusions: [PathPattern] = [],
    excluding exclusions: [PathPattern] = []
  ) {
    self.paths = paths.map(Self.normalized)
    self.inclusions = inclusions
    self.exclusions = exclusions
  }

  /// Creates a selection from glob text.
  ///
  /// - Parameters:
  ///   - paths: Entries named exactly.
  ///   - inclusions: Globs of which an entry must match one.
  ///   - exclusions: Globs no entry may match.
  /// - Throws: ``PackagingError`` (`invalid-pattern`) naming a bad glob.
  public init(paths: [String] = [], including inclusions: [String], excluding exclusions: [String])
    throws
  {
    self.init(
      paths: paths, including: try inclusions.map(PathPattern.init),
      excluding: try exclusions.map(PathPattern.init))
  }

  /// Whether the selection takes everything.
  public var isEverything: Bool { paths.isEmpty && inclusions.isEmpty && exclusions.isEmpty }

  /// Whether a path inside a package (as `folio pack` walks it) is selected.
  ///
  /// - Parameter path: The `/`-separated path below the package folder.
  /// - Returns: `true` when the path is taken.
  public func selects(packagePath path: String) -> Bool {
    selects(candidates: [Self.normalized(path)])
  }

  /// Whether an archive entry is selected, matching its name as written and below its top folder.
  ///
  /// - Parameter name: The entry's name (`Notebook.examplenotebook/pages/a.txt`).
  /// - Returns: `true` when the entry is taken.
  public func selects(entryName name: String) -> Bool {
    selects(candidates: Self.candidates(name))
  }

  /// The named path that selects an archive entry, if one does.
  ///
  /// - Parameter name: The entry's name.
  /// - Returns: The first of ``paths`` naming the entry or a folder above it.
  public func namedPath(selecting name: String) -> String? {
    let candidates = Self.candidates(name)
    return paths.first { path in candidates.contains { Self.isSelf(path, orAncestorOf: $0) } }
  }

  private func selects(candidates: [String]) -> Bool {
    if isEverything { return true }
    for candidate in candidates where exclusions.contains(where: { $0.matches(candidate) }) {
      return false
    }
    if paths.isEmpty && inclusions.isEmpty { return true }
    return candidates.contains { candidate in
      paths.contains { Self.isSelf($0, orAncestorOf: candidate) }
        || inclusions.contains { $0.matches(candidate) }
    }
  }

  private static func candidates(_ name: String) -> [String] {
    let path = normalized(name)
    guard let slash = path.firstIndex(of: "/") else { return [path] }
    return [path, String(path[path.index(after: slash)...])]
  }

  private static func isSelf(_ path: String, orAncestorOf candidate: String) -> Bool {
    candidate == path || candidate.hasPrefix(path + "/")
  }

  /// `./a//b/` → `a/b`.
  static func normalized(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
      .joined(separator: "/")
  }
}
