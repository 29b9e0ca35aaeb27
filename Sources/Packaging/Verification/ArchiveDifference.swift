/// One way an archive and a folder disagree, as ``ArchiveVerifier`` reports it.
///
/// Paths are relative to the folder compared against (the archive's one top folder
/// unwrapped, as `expand` unwraps it), with `/` between components.
public struct ArchiveDifference: Hashable, Sendable, CustomStringConvertible {
  /// What disagrees.
  public enum Kind: String, Hashable, Sendable {
    /// The archive has an entry the folder lacks.
    case missingFromFolder = "missing-from-folder"
    /// The folder has a file, folder or link the archive lacks.
    case missingFromArchive = "missing-from-archive"
    /// One is a file, the other a folder or link (or another pairing).
    case kind
    /// Both are files, of different sizes or bytes.
    case contents
    /// The permission bits differ.
    case permissions
    /// The modification times differ by more than the format can store.
    case modificationTime = "modification-time"
    /// Both are symbolic links, pointing at different targets.
    case linkTarget = "link-target"
    /// The extended attributes differ.
    case attributes
  }

  /// The path, relative to the folder compared against.
  public var path: EntryName
  /// What disagrees.
  public var kind: Kind
  /// What the archive holds, in words (`0644`, `12 bytes`), when it holds the path.
  public var archiveValue: String?
  /// What the folder holds, in words, when it holds the path.
  public var folderValue: String?

  /// Creates a difference.
  ///
  /// - Parameters:
  ///   - path: The path, relative to the folder compared against.
  ///   - kind: What disagrees.
  ///   - archiveValue: What the archive holds, in words.
  ///   - folderValue: What the folder holds, in words.
  public init(path: EntryName, kind: Kind, archiveValue: String? = nil, folderValue: String? = nil)
  {
    self.path = path
    self.kind = kind
    self.archiveValue = archiveValue
    self.folderValue = folderValue
  }

  /// One line: the escaped path, what differs, and both values
  /// (`a.txt: permissions differ (archive 0644, folder 0600)`).
  public var description: String {
    let name = EntryName.escapeForListing(path)
    switch kind {
    case .missingFromFolder: return "\(name): only in the archive (\(archiveValue ?? "entry"))"
    case .missingFromArchive: return "\(name): only in the folder (\(folderValue ?? "file"))"
    default:
      let words: String
      switch kind {
      case .kind: words = "kind differs"
      case .contents: words = "contents differ"
      case .permissions: words = "permissions differ"
      case .modificationTime: words = "modification time differs"
      case .linkTarget: words = "link target differs"
      case .attributes: words = "extended attributes differ"
      case .missingFromFolder, .missingFromArchive: words = ""
      }
      return "\(name): \(words) (archive \(archiveValue ?? "-"), folder \(folderValue ?? "-"))"
    }
  }
}
