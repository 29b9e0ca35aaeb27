import FolioSystem
import Glibc

extension ExtendedAttribute {
  /// A file's extended attributes (its POSIX ACLs among them), read without following
  /// a symbolic link.
  ///
  /// One `llistxattr` call for a file without attributes, which is all most files cost;
  /// a file system that keeps none (`ENOTSUP`) gives none.
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - displayPath: The file's name for messages.
  /// - Returns: The attributes, sorted by name.
  /// - Throws: ``PackagingError`` naming the file (and the attribute) when one cannot be
  ///   read, or when the file carries more than ``maximumCount``.
  package static func read(atPath path: String, displayPath: @autoclosure () -> String) throws
    -> [ExtendedAttribute]
  {
    let names: [[UInt8]]
    do {
      names = try ExtendedAttributes.names(atPath: path)
    } catch {
      if error.errno == ENOTSUP || error.errno == ENOENT { return [] }
      throw PackagingError.system(
        "cannot list the extended attributes of '\(displayPath())'", errno: error.errno)
    }
    guard !names.isEmpty else { return [] }
    guard names.count <= maximumCount else {
      throw PackagingError(
        .extendedAttributeLimit,
        "'\(displayPath())' has \(names.count) extended attributes; at most \(maximumCount) are kept"
      )
    }
    var attributes: [ExtendedAttribute] = []
    for name in names {
      guard let text = String(validating: name, as: UTF8.self) else {
        throw PackagingError(
          .invalidEntry,
          "an extended attribute name of '\(displayPath())' is not valid UTF-8; archives store UTF-8 names"
        )
      }
      do {
        let value = try ExtendedAttributes.value(of: name, atPath: path)
        attributes.append(ExtendedAttribute(name: text, value: value))
      } catch {
        // Removed since it was listed: nothing to keep.
        if error.errno == ENODATA { continue }
        throw PackagingError.system(
          "cannot read extended attribute '\(text)' of '\(displayPath())'", errno: error.errno)
      }
    }
    return attributes.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
  }
}
