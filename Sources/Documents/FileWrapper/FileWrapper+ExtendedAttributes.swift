import Archives
import FolioSystem
import Glibc

#if !canImport(Darwin)
  import FoundationEssentials

  extension FileWrapper {
    /// The ``fileAttributes`` key of an item's extended attributes: a `[String: Data]`
    /// from each attribute's full Linux name (`user.origin`, `system.posix_acl_access`)
    /// to its value, under the raw value Apple's Foundation gives the same key.
    ///
    /// Reading a file or folder fills it (when the item has any); writing sets them back
    /// (the `user.` attributes and POSIX ACLs, never `security.*`, `trusted.*` or other
    /// `system.*` names), and a file system that keeps no attributes gets none without
    /// failing the write. A wrapper read from an archive holds the attributes its entries
    /// carry, as the expansion policy lets them through.
    public static let extendedAttributesKey = "NSFileExtendedAttributes"

    /// The attributes recorded in ``fileAttributes``, as values.
    var recordedExtendedAttributes: [ExtendedAttribute] {
      guard let table = fileAttributes[Self.extendedAttributesKey] as? [String: Data] else {
        return []
      }
      return table.keys.sorted().map { ExtendedAttribute(name: $0, value: Array(table[$0]!)) }
    }

    /// Records a file's or folder's attributes read from disk (nothing when it has none).
    func adoptExtendedAttributes(path: String, mode: mode_t) {
      let type = mode & S_IFMT
      guard type == S_IFREG || type == S_IFDIR,
        let attributes = try? ExtendedAttribute.read(atPath: path, displayPath: path),
        !attributes.isEmpty
      else {
        fileAttributes[Self.extendedAttributesKey] = nil
        return
      }
      Self.record(attributes, in: &fileAttributes)
    }

    /// Puts attributes into a ``fileAttributes`` table.
    static func record(_ attributes: [ExtendedAttribute], in table: inout [String: Any]) {
      guard !attributes.isEmpty else { return }
      var values: [String: Data] = [:]
      for attribute in attributes { values[attribute.name] = Data(attribute.value) }
      table[extendedAttributesKey] = values
    }

    /// Sets the recorded attributes on a written file or folder: `user.` ones before the
    /// mode (which may take away the write permission they need), ACLs after it.
    ///
    /// - Parameters:
    ///   - descriptor: The item, open.
    ///   - afterMode: `false` for the `user.` attributes, `true` for the ACLs.
    static func setRecorded(
      _ attributes: [ExtendedAttribute], descriptor: Int32, afterMode: Bool, display: String
    ) throws {
      for attribute in attributes where attribute.isRestorable(acls: true) {
        guard attribute.isACL == afterMode else { continue }
        do {
          try ExtendedAttributes.set(
            Array(attribute.name.utf8), to: attribute.value, descriptor: descriptor)
        } catch {
          // A file system without attributes (vfat, tmpfs without user_xattr) keeps none.
          if error.errno == ENOTSUP { continue }
          throw PackagingError(
            .fileWriteFailed,
            "cannot set extended attribute '\(attribute.name)' of '\(display)'", cause: error)
        }
      }
    }
  }
#endif
