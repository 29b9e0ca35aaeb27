import FolioSystem

/// One extended attribute of a file, under its Linux name.
///
/// Names carry their Linux namespace (`user.xdg.origin.url`,
/// `system.posix_acl_access`). A POSIX ACL is the attribute Linux keeps it in
/// (``accessACLName``, ``defaultACLName``), its value in the kernel's binary
/// form, so one list holds everything a file carries; tar stores ACLs as
/// `SCHILY.acl.access` and `SCHILY.acl.default` text, the rest as
/// `SCHILY.xattr.NAME`.
///
/// Names from macOS have no namespace (`com.apple.metadata:_kMDItemUserTags`):
/// they become `user.` + the name on Linux, and lose that `user.` again when
/// written for macOS (AppleDouble in zip), so Mac → Linux → Mac keeps every name.
public struct ExtendedAttribute: Hashable, Sendable {
  /// The attribute's full Linux name (`user.origin`).
  public var name: String
  /// The value's bytes.
  public var value: [UInt8]

  /// Creates an attribute.
  ///
  /// - Parameters:
  ///   - name: The full Linux name (`user.origin`).
  ///   - value: The value's bytes.
  public init(name: String, value: [UInt8]) {
    self.name = name
    self.value = value
  }

  /// The attribute Linux keeps a file's access ACL in.
  public static let accessACLName = "system.posix_acl_access"
  /// The attribute Linux keeps a folder's default ACL in.
  public static let defaultACLName = "system.posix_acl_default"

  /// The largest value kept (Linux's own limit, 64 KiB).
  public static let maximumValueSize = ExtendedAttributes.maximumValueSize
  /// The most attributes kept for one file or entry.
  public static let maximumCount = 256

  /// Whether this is one of the two POSIX ACLs.
  public var isACL: Bool { name == Self.accessACLName || name == Self.defaultACLName }

  /// Whether an expansion may set this attribute.
  ///
  /// Only `user.*`, and the ACLs when asked: `security.*` holds file
  /// capabilities and SELinux labels (an archive must never hand an extracted
  /// program `cap_setuid`), `trusted.*` is the administrator's, and `system.*`
  /// other than the ACLs belongs to the file system.
  ///
  /// - Parameter acls: Whether ACLs are restored.
  /// - Returns: `true` when the attribute may be written.
  public func isRestorable(acls: Bool) -> Bool {
    if isACL { return acls }
    return name.hasPrefix("user.") && name.utf8.count > 5
  }

  /// The Linux name for a name as another system stores it: unchanged when it
  /// has a Linux namespace, else `user.` + the name (a macOS name).
  ///
  /// - Parameter name: The name as stored.
  /// - Returns: The Linux name.
  public static func linuxName(fromStored name: String) -> String {
    for namespace in ["user.", "trusted.", "security.", "system."] where name.hasPrefix(namespace) {
      return name
    }
    return "user." + name
  }

  /// The Linux name for a macOS name (always in the `user.` namespace).
  ///
  /// - Parameter name: The macOS name (`com.apple.FinderInfo`).
  /// - Returns: `user.` + the name.
  public static func linuxName(fromMacOS name: String) -> String { "user." + name }

  /// The macOS name of a Linux `user.` attribute, or `nil` for other namespaces,
  /// which macOS has no place for.
  ///
  /// - Parameter name: The Linux name.
  /// - Returns: The name without `user.`.
  public static func macOSName(fromLinux name: String) -> String? {
    guard name.hasPrefix("user."), name.utf8.count > 5 else { return nil }
    return String(name.dropFirst(5))
  }
}

extension ExtendedAttribute {
  /// The value as `folio list --xattrs` prints it: an ACL in its short text form
  /// (`user::rw-,user:1234:r--,…`), printable UTF-8 as a quoted, escaped string, anything
  /// else as `0x` and hexadecimal digits (as `getfattr -e hex`).
  public var displayValue: String {
    if isACL, let acl = PosixACL(attributeValue: value) { return acl.text }
    if let text = String(validating: value, as: UTF8.self),
      !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
    {
      return JSONText.quote(text)
    }
    let digits = Array("0123456789abcdef")
    var hex = "0x"
    for byte in value {
      hex.append(digits[Int(byte >> 4)])
      hex.append(digits[Int(byte & 0xF)])
    }
    return hex
  }
}
