import FolioSystem
import Glibc

extension StagingFolder {
  /// The most warnings about attributes kept one by one; the rest are counted in one more.
  static let attributeWarningLimit = 20

  /// Sets a file's or folder's `user.*` attributes through its open descriptor (before
  /// its final mode, which may take away the write permission they need), and keeps the
  /// ACLs for ``setACLs(_:descriptor:path:)``.
  ///
  /// A refusal (a file system without attributes, a full attribute block) is a warning
  /// naming the file and the attribute, never a failed expansion.
  ///
  /// - Returns: The ACLs among the attributes, to set after the mode.
  func setUserAttributes(
    _ attributes: [ExtendedAttribute], descriptor: Int32, path: RelativePath
  ) -> [ExtendedAttribute] {
    var acls: [ExtendedAttribute] = []
    for attribute in attributes {
      if attribute.isACL {
        acls.append(attribute)
        continue
      }
      set(attribute, descriptor: descriptor, path: path)
    }
    return acls
  }

  /// Sets ACLs after the mode (setting one changes the mode's group bits to its mask).
  func setACLs(_ acls: [ExtendedAttribute], descriptor: Int32, path: RelativePath) {
    for attribute in acls { set(attribute, descriptor: descriptor, path: path) }
  }

  private func set(_ attribute: ExtendedAttribute, descriptor: Int32, path: RelativePath) {
    do {
      try ExtendedAttributes.set(
        Array(attribute.name.utf8), to: attribute.value, descriptor: descriptor)
    } catch {
      noteAttributeFailure(attribute.name, path: path, errno: error.errno)
    }
  }

  /// Records an attribute the file system refused.
  func noteAttributeFailure(_ name: String, path: RelativePath, errno code: Int32) {
    let reason =
      code == ENOTSUP
      ? "the file system keeps no such attributes" : String(cString: strerror(code))
    attributeFailures.withLock { state in
      state.count += 1
      if state.warnings.count < Self.attributeWarningLimit {
        state.warnings.append(
          ArchiveWarning(
            code: "extended-attribute-not-set",
            message:
              "extended attribute '\(name)' of \(EntryName(path.string).display) was not set: \(reason)"
          ))
      }
    }
  }

  func setExtendedAttributes(_ attributes: [ExtendedAttribute], ofDirectory path: RelativePath) {
    guard !attributes.isEmpty, let descriptor = try? directory(path.components[...]) else {
      return
    }
    let acls = setUserAttributes(attributes, descriptor: descriptor, path: path)
    if !acls.isEmpty { directoryACLs[path.components] = acls }
  }

  func setExtendedAttributes(_ attributes: [ExtendedAttribute], ofExisting path: RelativePath)
    -> Bool
  {
    // Every entry is written and no symbolic link is made yet (they come at the commit),
    // so the path resolves through folders the expansion created.
    var info = stat()
    guard fstatat(root, path.string, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
    let type = info.st_mode & S_IFMT
    guard type == S_IFREG || type == S_IFDIR else { return false }
    guard !attributes.isEmpty else { return true }
    if type == S_IFDIR {
      setExtendedAttributes(attributes, ofDirectory: path)
      return true
    }
    // Read-only files are made owner-writable for the moment the attributes need.
    let mode = info.st_mode & 0o7777
    let writable = mode & S_IWUSR != 0
    if !writable { _ = fchmodat(root, path.string, mode | S_IWUSR, 0) }
    let descriptor = openat(root, path.string, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      if !writable { _ = fchmodat(root, path.string, mode, 0) }
      for attribute in attributes { noteAttributeFailure(attribute.name, path: path, errno: code) }
      return true
    }
    defer { close(descriptor) }
    let acls = setUserAttributes(attributes, descriptor: descriptor, path: path)
    if !writable { _ = fchmod(descriptor, mode) }
    setACLs(acls, descriptor: descriptor, path: path)
    return true
  }

  var attributeWarnings: [ArchiveWarning] {
    attributeFailures.withLock { state in
      guard state.count > state.warnings.count else { return state.warnings }
      return state.warnings + [
        ArchiveWarning(
          code: "extended-attribute-not-set",
          message: "\(state.count - state.warnings.count) more extended attributes were not set")
      ]
    }
  }
}
