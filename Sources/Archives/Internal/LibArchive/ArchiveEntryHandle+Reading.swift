internal import CLibArchive
import FoundationEssentials
import Glibc

extension ArchiveEntryHandle {
  /// The entry's name as the archive stores it, in the process's UTF-8 locale
  /// (``LibArchive/prepareLocale()``); the UTF-8 form only when there is no other.
  ///
  /// libarchive's `…_utf8` accessors convert through its own UTF-8 routine, which
  /// composes the name to Unicode NFC: `cafe\u{301}.txt` and `caf\u{E9}.txt`, two files,
  /// would come out as one name (a duplicate, or one silently replacing the other). The
  /// locale form keeps the bytes the archive holds.
  ///
  /// The corresponding C functions are `archive_entry_pathname` and
  /// `archive_entry_pathname_utf8`.
  var pathnameBytes: [UInt8] {
    if let raw = archive_entry_pathname(pointer) { return Self.bytes(raw) }
    if let text = archive_entry_pathname_utf8(pointer) { return Self.bytes(text) }
    return []
  }

  /// A symbolic link's target as stored (see ``pathnameBytes``).
  var symlinkBytes: [UInt8]? {
    if let raw = archive_entry_symlink(pointer) { return Self.bytes(raw) }
    return archive_entry_symlink_utf8(pointer).map(Self.bytes)
  }

  /// A hard link's target as stored (see ``pathnameBytes``).
  var hardlinkBytes: [UInt8]? {
    if let raw = archive_entry_hardlink(pointer) { return Self.bytes(raw) }
    return archive_entry_hardlink_utf8(pointer).map(Self.bytes)
  }

  /// Whether the entry's data or metadata is encrypted.
  ///
  /// The corresponding C function is `archive_entry_is_encrypted`.
  var isEncrypted: Bool { archive_entry_is_encrypted(pointer) != 0 }

  /// Whether the entry has sparse regions (holes that read as zeros).
  ///
  /// The corresponding C function is `archive_entry_sparse_count`.
  var isSparse: Bool { archive_entry_sparse_count(pointer) > 0 }

  /// The entry described as a value.
  var info: ArchiveEntryInfo {
    let hardlink = hardlinkBytes
    let kind: ArchiveEntryInfo.Kind
    if let hardlink, !hardlink.isEmpty {
      kind = .hardLink
    } else {
      switch UInt32(archive_entry_filetype(pointer)) & UInt32(Glibc.S_IFMT) {
      case UInt32(Glibc.S_IFDIR): kind = .directory
      case UInt32(Glibc.S_IFLNK): kind = .symbolicLink
      case UInt32(Glibc.S_IFCHR): kind = .characterDevice
      case UInt32(Glibc.S_IFBLK): kind = .blockDevice
      case UInt32(Glibc.S_IFIFO): kind = .fifo
      case UInt32(Glibc.S_IFSOCK): kind = .socket
      default: kind = .file
      }
    }
    let time = modificationTime
    var info = ArchiveEntryInfo(
      name: EntryName(bytes: pathnameBytes), kind: kind, permissions: UInt32(permissions) & 0o7777,
      size: size, modificationTime: time.map { Int64($0.tv_sec) },
      modificationNanoseconds: time.map { Int($0.tv_nsec) } ?? 0, ownerName: userName,
      groupName: groupName, ownerID: userID, groupID: groupID,
      linkTarget: kind == .hardLink
        ? hardlink.map(EntryName.init(bytes:))
        : kind == .symbolicLink ? symlinkBytes.map(EntryName.init(bytes:)) : nil)
    if hasExtendedAttributes { info.extendedAttributes = extendedAttributes }
    return info
  }

  private static func bytes(_ text: UnsafePointer<CChar>) -> [UInt8] {
    Array(UnsafeBufferPointer(start: text, count: strlen(text))).map { UInt8(bitPattern: $0) }
  }
}
