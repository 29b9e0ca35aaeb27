/// One entry of an archive as its header describes it, before any safety rule.
///
/// ``ArchiveLister`` yields these for `folio list`; the expander checks them
/// against an ``ExpansionPolicy`` before writing anything.
public struct ArchiveEntryInfo: Hashable, Sendable {
  /// What kind of file system object an entry describes.
  public enum Kind: String, Hashable, Sendable {
    /// A regular file with data.
    case file
    /// A folder.
    case directory
    /// A symbolic link; ``ArchiveEntryInfo/linkTarget`` holds its target.
    case symbolicLink
    /// A hard link to an earlier entry, named by ``ArchiveEntryInfo/linkTarget``.
    case hardLink
    /// A character device.
    case characterDevice
    /// A block device.
    case blockDevice
    /// A named pipe.
    case fifo
    /// A socket.
    case socket

    /// Whether expanding would create a device, FIFO or socket (always refused).
    public var isSpecial: Bool {
      switch self {
      case .characterDevice, .blockDevice, .fifo, .socket: true
      case .file, .directory, .symbolicLink, .hardLink: false
      }
    }

    /// The kind in words, for messages (`character device`).
    public var words: String {
      switch self {
      case .file: "file"
      case .directory: "folder"
      case .symbolicLink: "symbolic link"
      case .hardLink: "hard link"
      case .characterDevice: "character device"
      case .blockDevice: "block device"
      case .fifo: "FIFO"
      case .socket: "socket"
      }
    }

    /// The type letter `ls -l` and `bsdtar -tv` print (`-`, `d`, `l`, `h`, `c`, `b`, `p`, `s`).
    public var letter: Character {
      switch self {
      case .file: "-"
      case .directory: "d"
      case .symbolicLink: "l"
      case .hardLink: "h"
      case .characterDevice: "c"
      case .blockDevice: "b"
      case .fifo: "p"
      case .socket: "s"
      }
    }
  }

  /// The entry's name as stored.
  public var name: EntryName
  /// What the entry creates.
  public var kind: Kind
  /// The permission bits as stored, setuid, setgid and sticky included (`0o7777` at most).
  public var permissions: UInt32
  /// The data size the header declares, or `nil` when the header does not say.
  public var size: Int64?
  /// The modification time in seconds since 1970, when stored.
  public var modificationTime: Int64?
  /// The nanoseconds part of the modification time.
  public var modificationNanoseconds: Int
  /// The owner's name, when stored.
  public var ownerName: String?
  /// The group's name, when stored.
  public var groupName: String?
  /// The owner's numeric id.
  public var ownerID: Int64
  /// The group's numeric id.
  public var groupID: Int64
  /// A link's target (symbolic: as written; hard: another entry's name).
  public var linkTarget: EntryName?
  /// The entry's extended attributes and POSIX ACLs under their Linux names (see
  /// ``ExtendedAttribute``); empty when it has none or the format stores none.
  public var extendedAttributes: [ExtendedAttribute] = []

  /// Creates an entry description.
  ///
  /// - Parameters:
  ///   - name: The entry's name as stored.
  ///   - kind: What the entry creates.
  ///   - permissions: The permission bits as stored.
  ///   - size: The declared data size, if known.
  ///   - modificationTime: Seconds since 1970, if stored.
  ///   - modificationNanoseconds: The nanoseconds part.
  ///   - ownerName: The owner's name, if stored.
  ///   - groupName: The group's name, if stored.
  ///   - ownerID: The owner's numeric id.
  ///   - groupID: The group's numeric id.
  ///   - linkTarget: A link's target.
  public init(
    name: EntryName, kind: Kind, permissions: UInt32, size: Int64? = nil,
    modificationTime: Int64? = nil, modificationNanoseconds: Int = 0, ownerName: String? = nil,
    groupName: String? = nil, ownerID: Int64 = 0, groupID: Int64 = 0, linkTarget: EntryName? = nil
  ) {
    self.name = name
    self.kind = kind
    self.permissions = permissions
    self.size = size
    self.modificationTime = modificationTime
    self.modificationNanoseconds = modificationNanoseconds
    self.ownerName = ownerName
    self.groupName = groupName
    self.ownerID = ownerID
    self.groupID = groupID
    self.linkTarget = linkTarget
  }
}
