internal import CLibArchive
import FoundationEssentials
import Glibc

/// Owns one libarchive `struct archive_entry`, freed in `deinit`.
///
/// Names are set as the bytes they are (`archive_entry_copy_pathname`, in the UTF-8
/// locale libarchive is given, see ``LibArchive/prepareLocale()``): libarchive's
/// `…_utf8` setters compose names to Unicode NFC, so `cafe\u{301}.txt` and
/// `caf\u{E9}.txt` (two files) would be written as one name, as bsdtar never does. One handle can be reused for many entries
/// with ``clear()``.
final class ArchiveEntryHandle {
  /// The owned entry; valid for the handle's lifetime.
  let pointer: OpaquePointer

  /// The kind of an entry, as its `AE_IF*` file type says (the same values as `S_IF*`).
  enum FileType: Equatable {
    case regular, directory, symbolicLink, other(UInt32)
  }

  /// Creates an empty entry.
  ///
  /// The corresponding C function is `archive_entry_new`.
  ///
  /// - Throws: ``PackagingError`` when libarchive cannot allocate one.
  init() throws {
    guard let pointer = archive_entry_new() else {
      throw PackagingError(.archiveFatal, "cannot allocate an archive entry")
    }
    self.pointer = pointer
  }

  deinit {
    archive_entry_free(pointer)
  }

  /// Resets every field, for the next entry.
  ///
  /// The corresponding C function is `archive_entry_clear`.
  func clear() {
    archive_entry_clear(pointer)
  }

  /// The entry's path inside the archive, as UTF-8.
  var pathname: String? {
    get { archive_entry_pathname_utf8(pointer).map { String(cString: $0) } }
    set { archive_entry_copy_pathname(pointer, newValue) }
  }

  /// The entry's file type.
  var fileType: FileType {
    get {
      switch UInt32(archive_entry_filetype(pointer)) {
      case UInt32(Glibc.S_IFREG): .regular
      case UInt32(Glibc.S_IFDIR): .directory
      case UInt32(Glibc.S_IFLNK): .symbolicLink
      case let other: .other(other)
      }
    }
    set {
      let value: UInt32
      switch newValue {
      case .regular: value = UInt32(Glibc.S_IFREG)
      case .directory: value = UInt32(Glibc.S_IFDIR)
      case .symbolicLink: value = UInt32(Glibc.S_IFLNK)
      case .other(let raw): value = raw
      }
      archive_entry_set_filetype(pointer, value)
    }
  }

  /// The permission bits (including setuid, setgid and sticky).
  var permissions: mode_t {
    get { archive_entry_perm(pointer) }
    set { archive_entry_set_perm(pointer, newValue) }
  }

  /// The data size; `nil` when the archive did not record one.
  var size: Int64? {
    get { archive_entry_size_is_set(pointer) != 0 ? archive_entry_size(pointer) : nil }
    set {
      if let newValue {
        archive_entry_set_size(pointer, newValue)
      } else {
        archive_entry_unset_size(pointer)
      }
    }
  }

  /// The modification time (seconds and nanoseconds since 1970), if set.
  var modificationTime: timespec? {
    get {
      guard archive_entry_mtime_is_set(pointer) != 0 else { return nil }
      return timespec(
        tv_sec: archive_entry_mtime(pointer), tv_nsec: archive_entry_mtime_nsec(pointer))
    }
    set {
      if let newValue {
        archive_entry_set_mtime(pointer, newValue.tv_sec, newValue.tv_nsec)
      } else {
        archive_entry_unset_mtime(pointer)
      }
    }
  }

  /// The target of a symbolic link entry, as UTF-8.
  var symlinkTarget: String? {
    get { archive_entry_symlink_utf8(pointer).map { String(cString: $0) } }
    set { archive_entry_copy_symlink(pointer, newValue) }
  }

  /// The earlier entry a hard link entry names, as UTF-8.
  var hardlinkTarget: String? {
    get { archive_entry_hardlink_utf8(pointer).map { String(cString: $0) } }
    set { archive_entry_copy_hardlink(pointer, newValue) }
  }

  /// The numeric owner.
  var userID: Int64 {
    get { archive_entry_uid(pointer) }
    set { archive_entry_set_uid(pointer, newValue) }
  }

  /// The numeric group.
  var groupID: Int64 {
    get { archive_entry_gid(pointer) }
    set { archive_entry_set_gid(pointer, newValue) }
  }

  /// The owner's name, if recorded.
  var userName: String? {
    get { archive_entry_uname_utf8(pointer).map { String(cString: $0) } }
    set { archive_entry_set_uname_utf8(pointer, newValue) }
  }

  /// The group's name, if recorded.
  var groupName: String? {
    get { archive_entry_gname_utf8(pointer).map { String(cString: $0) } }
    set { archive_entry_set_gname_utf8(pointer, newValue) }
  }
}
