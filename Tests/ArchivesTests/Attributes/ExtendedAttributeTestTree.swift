import FolioSystem
import FolioTestSupport
import Foundation

@testable import Archives

/// A small package whose file and folder carry `user.` attributes and whose file carries
/// an access ACL, and the helpers the attribute tests read trees with.
enum ExtendedAttributeTestTree {
  /// An access ACL granting user 1234 read, with a mask of read and write.
  static let acl = PosixACL(entries: [
    .init(tag: .owner, permissions: 6), .init(tag: .user, permissions: 4, id: 1234),
    .init(tag: .owningGroup, permissions: 4), .init(tag: .mask, permissions: 6),
    .init(tag: .other, permissions: 0),
  ])

  /// Whether the temporary folder's file system keeps `user.` attributes and ACLs.
  static let isSupported: Bool = {
    guard let folder = try? makeTemporaryDirectory("xattr-probe") else { return false }
    defer { removeTree(folder) }
    let file = folder.appendingPathComponent("probe").path
    guard FileManager.default.createFile(atPath: file, contents: Data()) else { return false }
    do {
      try ExtendedAttributes.set(Array("user.probe".utf8), to: [1], atPath: file)
      try ExtendedAttributes.set(
        Array(ExtendedAttribute.accessACLName.utf8), to: acl.attributeValue, atPath: file)
      return true
    } catch {
      return false
    }
  }()

  /// Builds `Pkg/` in `folder`: `a.txt` (`user.test=hello`, `user.com.apple.metadata:tags`
  /// and the ACL), `sub/` (`user.dir=d`) and `sub/b.txt` (no attributes).
  static func make(in folder: URL) throws -> URL {
    let package = folder.appendingPathComponent("Pkg")
    let sub = package.appendingPathComponent("sub")
    try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
    try Data("hello\n".utf8).write(to: package.appendingPathComponent("a.txt"))
    try Data("b\n".utf8).write(to: sub.appendingPathComponent("b.txt"))
    let file = package.appendingPathComponent("a.txt").path
    try ExtendedAttributes.set(Array("user.test".utf8), to: Array("hello".utf8), atPath: file)
    try ExtendedAttributes.set(
      Array("user.com.apple.metadata:tags".utf8), to: [0, 1, 2, 255], atPath: file)
    try ExtendedAttributes.set(
      Array(ExtendedAttribute.accessACLName.utf8), to: acl.attributeValue, atPath: file)
    try ExtendedAttributes.set(Array("user.dir".utf8), to: Array("d".utf8), atPath: sub.path)
    return package
  }

  /// A file's attributes by name.
  static func attributes(of url: URL) throws -> [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    for name in try ExtendedAttributes.names(atPath: url.path) {
      result[String(decoding: name, as: UTF8.self)] = try ExtendedAttributes.value(
        of: name, atPath: url.path)
    }
    return result
  }

  /// Checks that `restored` (a copy of `Pkg`) carries the tree's attributes, and the ACL
  /// when `acl` is set (else none).
  static func differences(_ restored: URL, acl withACL: Bool) throws -> [String] {
    var problems: [String] = []
    let file = try attributes(of: restored.appendingPathComponent("a.txt"))
    if file["user.test"] != Array("hello".utf8) { problems.append("a.txt user.test: \(file)") }
    if file["user.com.apple.metadata:tags"] != [0, 1, 2, 255] {
      problems.append("a.txt tags: \(file)")
    }
    let restoredACL = file[ExtendedAttribute.accessACLName].flatMap(PosixACL.init)
    if withACL, restoredACL != acl {
      problems.append("a.txt ACL: \(String(describing: restoredACL?.text))")
    }
    if !withACL, restoredACL != nil { problems.append("a.txt has an ACL it should not") }
    let folder = try attributes(of: restored.appendingPathComponent("sub"))
    if folder["user.dir"] != Array("d".utf8) { problems.append("sub user.dir: \(folder)") }
    let plain = try attributes(of: restored.appendingPathComponent("sub/b.txt"))
    if !plain.isEmpty { problems.append("b.txt: \(plain)") }
    return problems
  }
}
