/// A POSIX.1e access control list, as Linux stores it in `system.posix_acl_access`
/// and `system.posix_acl_default`.
///
/// The kernel's form is a little-endian version (2) and one 8-byte record per
/// entry: tag, permissions, id. ``text`` is the short form `getfacl` and tar's
/// `SCHILY.acl.*` records use, with numeric ids.
struct PosixACL: Equatable {
  /// Whom one entry grants to.
  enum Tag: UInt16, Comparable {
    case owner = 0x01, user = 0x02, owningGroup = 0x04, group = 0x08, mask = 0x10, other = 0x20

    static func < (left: Tag, right: Tag) -> Bool { left.rawValue < right.rawValue }
  }

  /// One entry: whom, which of read (4), write (2), execute (1), and the user or group id
  /// for ``Tag/user`` and ``Tag/group``.
  struct Entry: Equatable {
    var tag: Tag
    var permissions: UInt16
    var id: UInt32?
  }

  /// The entries, in the kernel's order (by tag, then id).
  var entries: [Entry]

  /// The most entries read (Linux's own limit for ext4 is far lower).
  static let maximumEntryCount = 1024

  init(entries: [Entry]) {
    self.entries = entries.sorted { ($0.tag, $0.id ?? 0) < ($1.tag, $1.id ?? 0) }
  }

  /// Reads the kernel's binary form; `nil` when it is not one.
  init?(attributeValue bytes: [UInt8]) {
    guard bytes.count >= 4, (bytes.count - 4) % 8 == 0,
      (bytes.count - 4) / 8 <= Self.maximumEntryCount,
      Self.read32(bytes, 0) == 2
    else { return nil }
    var entries: [Entry] = []
    var offset = 4
    while offset < bytes.count {
      guard let tag = Tag(rawValue: Self.read16(bytes, offset)) else { return nil }
      let permissions = Self.read16(bytes, offset + 2) & 7
      let id = Self.read32(bytes, offset + 4)
      entries.append(
        Entry(tag: tag, permissions: permissions, id: tag == .user || tag == .group ? id : nil))
      offset += 8
    }
    self.entries = entries
  }

  /// The kernel's binary form.
  var attributeValue: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(4 + 8 * entries.count)
    Self.append32(2, to: &bytes)
    for entry in entries {
      Self.append16(entry.tag.rawValue, to: &bytes)
      Self.append16(entry.permissions, to: &bytes)
      Self.append32(entry.id ?? UInt32.max, to: &bytes)
    }
    return bytes
  }

  /// The short text form (`user::rw-,user:1000:r--,group::r--,mask::r--,other::---`).
  var text: String {
    entries.map { entry in
      let kind: String
      switch entry.tag {
      case .owner, .user: kind = "user"
      case .owningGroup, .group: kind = "group"
      case .mask: kind = "mask"
      case .other: kind = "other"
      }
      let who = entry.id.map(String.init) ?? ""
      let bits = entry.permissions
      let rights =
        (bits & 4 != 0 ? "r" : "-") + (bits & 2 != 0 ? "w" : "-") + (bits & 1 != 0 ? "x" : "-")
      return "\(kind):\(who):\(rights)"
    }.joined(separator: ",")
  }

  private static func read16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
    UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
  }

  private static func read32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(read16(bytes, at)) | UInt32(read16(bytes, at + 2)) << 16
  }

  private static func append16(_ value: UInt16, to bytes: inout [UInt8]) {
    bytes.append(UInt8(value & 0xFF))
    bytes.append(UInt8(value >> 8))
  }

  private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
    append16(UInt16(value & 0xFFFF), to: &bytes)
    append16(UInt16(value >> 16), to: &bytes)
  }
}
