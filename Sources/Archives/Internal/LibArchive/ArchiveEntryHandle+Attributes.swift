internal import CLibArchive
import Glibc

extension ArchiveEntryHandle {
  private static let accessType = ARCHIVE_ENTRY_ACL_TYPE_ACCESS
  private static let defaultType = ARCHIVE_ENTRY_ACL_TYPE_DEFAULT

  /// The entry's extended attributes under their Linux names, the POSIX ACLs among them
  /// as ``ExtendedAttribute/accessACLName`` and ``ExtendedAttribute/defaultACLName``
  /// in the kernel's binary form.
  ///
  /// libarchive reads `SCHILY.xattr.NAME` and `LIBARCHIVE.xattr.NAME` pax records into
  /// its attribute list, and `SCHILY.acl.access` / `SCHILY.acl.default` into its ACL;
  /// setting writes them back the same way (the ACLs as text with numeric ids).
  ///
  /// The corresponding C functions are `archive_entry_xattr_reset`,
  /// `archive_entry_xattr_next`, `archive_entry_xattr_add_entry`,
  /// `archive_entry_acl_reset`, `archive_entry_acl_next` and `archive_entry_acl_add_entry`.
  var extendedAttributes: [ExtendedAttribute] {
    get {
      var attributes: [ExtendedAttribute] = []
      let count = archive_entry_xattr_reset(pointer)
      if count > 0 {
        var name: UnsafePointer<CChar>?
        var value: UnsafeRawPointer?
        var size = 0
        // bsdtar and Folio write each attribute twice (SCHILY.xattr and LIBARCHIVE.xattr),
        // which libarchive hands over as two: the later record wins, as on extraction.
        var positions: [String: Int] = [:]
        while archive_entry_xattr_next(pointer, &name, &value, &size) == ARCHIVE_OK, let name {
          guard let text = String(validatingCString: name) else { continue }
          let bytes = value.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
          let attribute = ExtendedAttribute(
            name: ExtendedAttribute.linuxName(fromStored: text), value: bytes)
          if let at = positions[attribute.name] {
            attributes[at] = attribute
          } else {
            positions[attribute.name] = attributes.count
            attributes.append(attribute)
          }
        }
      }
      // An ACL in an xattr record too would be a second copy: the ACL records win.
      if let access = acl(type: Self.accessType) {
        attributes.removeAll { $0.name == ExtendedAttribute.accessACLName }
        attributes.append(
          ExtendedAttribute(name: ExtendedAttribute.accessACLName, value: access.attributeValue))
      }
      if let defaults = acl(type: Self.defaultType) {
        attributes.removeAll { $0.name == ExtendedAttribute.defaultACLName }
        attributes.append(
          ExtendedAttribute(name: ExtendedAttribute.defaultACLName, value: defaults.attributeValue))
      }
      return attributes
    }
    set {
      archive_entry_xattr_clear(pointer)
      archive_entry_acl_clear(pointer)
      for attribute in newValue {
        if attribute.isACL {
          guard let acl = PosixACL(attributeValue: attribute.value) else { continue }
          let type =
            attribute.name == ExtendedAttribute.accessACLName ? Self.accessType : Self.defaultType
          add(acl, type: type)
        } else {
          attribute.value.withUnsafeBytes { bytes in
            archive_entry_xattr_add_entry(pointer, attribute.name, bytes.baseAddress, bytes.count)
          }
        }
      }
    }
  }

  /// Whether the entry carries any extended attribute or ACL (cheaper than reading them).
  var hasExtendedAttributes: Bool {
    archive_entry_xattr_count(pointer) > 0
      || archive_entry_acl_count(pointer, ARCHIVE_ENTRY_ACL_TYPE_POSIX1E) > 0
  }

  private func acl(type: Int32) -> PosixACL? {
    guard archive_entry_acl_count(pointer, type) > 0 else { return nil }
    // libarchive keeps the owner, owning group and other entries of an access ACL in the
    // mode; reset hands them over again, synthesised from it.
    guard archive_entry_acl_reset(pointer, type) > 0 else { return nil }
    var entries: [PosixACL.Entry] = []
    var kind: Int32 = 0
    var permissions: Int32 = 0
    var tag: Int32 = 0
    var qualifier: Int32 = 0
    var name: UnsafePointer<CChar>?
    while archive_entry_acl_next(pointer, type, &kind, &permissions, &tag, &qualifier, &name)
      == ARCHIVE_OK
    {
      let bits = UInt16(permissions & 7)
      switch tag {
      case ARCHIVE_ENTRY_ACL_USER_OBJ: entries.append(.init(tag: .owner, permissions: bits))
      case ARCHIVE_ENTRY_ACL_GROUP_OBJ: entries.append(.init(tag: .owningGroup, permissions: bits))
      case ARCHIVE_ENTRY_ACL_MASK: entries.append(.init(tag: .mask, permissions: bits))
      case ARCHIVE_ENTRY_ACL_OTHER: entries.append(.init(tag: .other, permissions: bits))
      case ARCHIVE_ENTRY_ACL_USER, ARCHIVE_ENTRY_ACL_GROUP:
        let isUser = tag == ARCHIVE_ENTRY_ACL_USER
        let id =
          qualifier >= 0
          ? UInt32(qualifier) : name.flatMap { Self.lookUp(String(cString: $0), user: isUser) }
        guard let id else { continue }
        entries.append(.init(tag: isUser ? .user : .group, permissions: bits, id: id))
      default: continue
      }
      if entries.count > PosixACL.maximumEntryCount { return nil }
    }
    return PosixACL(entries: entries)
  }

  private func add(_ acl: PosixACL, type: Int32) {
    for entry in acl.entries {
      let tag: Int32
      switch entry.tag {
      case .owner: tag = ARCHIVE_ENTRY_ACL_USER_OBJ
      case .user: tag = ARCHIVE_ENTRY_ACL_USER
      case .owningGroup: tag = ARCHIVE_ENTRY_ACL_GROUP_OBJ
      case .group: tag = ARCHIVE_ENTRY_ACL_GROUP
      case .mask: tag = ARCHIVE_ENTRY_ACL_MASK
      case .other: tag = ARCHIVE_ENTRY_ACL_OTHER
      }
      let qualifier = entry.id.map { Int32(bitPattern: $0) } ?? -1
      _ = archive_entry_acl_add_entry(
        pointer, type, Int32(entry.permissions), tag, qualifier, nil)
    }
  }

  /// A user's or group's id from its name, for an ACL that records only the name.
  private static func lookUp(_ name: String, user: Bool) -> UInt32? {
    var scratch = [CChar](repeating: 0, count: 4096)
    if user {
      var record = passwd()
      var result: UnsafeMutablePointer<passwd>?
      guard getpwnam_r(name, &record, &scratch, scratch.count, &result) == 0, let result else {
        return nil
      }
      return result.pointee.pw_uid
    }
    var record = group()
    var result: UnsafeMutablePointer<group>?
    guard getgrnam_r(name, &record, &scratch, scratch.count, &result) == 0, let result else {
      return nil
    }
    return result.pointee.gr_gid
  }
}
