public import FoundationEssentials

/// Where an archive is read from.
public enum ArchiveInput: Hashable, Sendable {
  /// A file by path: a regular file, or a named pipe read as it streams.
  case file(URL)
  /// The process's standard input (`folio expand -`).
  ///
  /// A pipe is read as it arrives: a tar (compressed or not) streams through;
  /// a zip, whose central directory is at its end, is first copied into an
  /// unnamed temporary file, within the expansion's byte limit. Redirected
  /// from a file, standard input is read as that file.
  case standardInput

  /// The name messages use: the path, or `standard input`.
  public var displayName: String {
    switch self {
    case .file(let url): url.path
    case .standardInput: "standard input"
    }
  }
}
