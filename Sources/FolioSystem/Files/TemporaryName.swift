import Glibc

/// The one naming scheme of Folio's temporaries: `.NAME.folio-KIND-PID-RANDOM`,
/// beside the file or folder `NAME` they will become or replace.
///
/// The leading dot hides them from listings; the name ties them to their
/// target; the process ID lets a later run tell a killed run's leftover from
/// a live run's work (see ``LeftoverTemporaries``).
package enum TemporaryName {
  /// What a temporary is for.
  package enum Kind: String, CaseIterable, Sendable {
    /// A file or tree being written, renamed over its target when complete.
    case file = "tmp"
    /// An archive being expanded (a staging folder).
    case expansion = "expand"
    /// An old target moved aside while its replacement moves in.
    case aside = "old"
    /// A scratch folder an operation works in.
    case work = "work"

    /// The marker after the target's name: `.folio-tmp-`.
    package var marker: String { ".folio-\(rawValue)-" }
  }

  /// A fresh name beside a target, in the same folder (so a rename is atomic).
  ///
  /// - Parameters:
  ///   - target: The path of the file or folder the temporary is for.
  ///   - kind: What the temporary is for.
  /// - Returns: `<folder>/.<name>.folio-<kind>-<pid>-<random>`.
  package static func beside(_ target: String, kind: Kind = .file) -> String {
    let (folder, name) = split(target)
    let random = String(UInt32.random(in: .min ... .max), radix: 16)
    return folder + "/." + name + kind.marker + "\(getpid())-" + random
  }

  /// The prefix every temporary of a target starts with, inside its folder: `.<name>.folio-`.
  ///
  /// - Parameter target: The target's path.
  /// - Returns: The folder and the prefix.
  package static func prefix(of target: String) -> (folder: String, prefix: String) {
    let (folder, name) = split(target)
    return (folder, "." + name + ".folio-")
  }

  /// The folder and last name of a path (`.` for a bare name), trailing slashes ignored.
  package static func split(_ path: String) -> (folder: String, name: String) {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
    let folder = trimmed[..<slash]
    return (folder.isEmpty ? "/" : String(folder), String(trimmed[trimmed.index(after: slash)...]))
  }
}
