import FolioSystem
import FolioTestSupport
import Foundation
import Glibc
import Testing

/// FolioSystem's attribute calls: lists longer than the first buffer, values, errno.
@Suite struct ExtendedAttributesTests {
  /// A folder of tmpfs (`/dev/shm`), which keeps a 6 KiB list of names; ext4 keeps
  /// an inode's attributes in one 4 KiB block, so the first call's buffer always fits there.
  private static let roomyFolder: URL? = {
    let folder = URL(fileURLWithPath: "/dev/shm/folio-xattr-\(UUID().uuidString)")
    guard
      (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false))
        != nil
    else { return nil }
    let path = folder.appendingPathComponent("probe").path
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let works = (try? ExtendedAttributes.set(Array("user.p".utf8), to: [], atPath: path)) != nil
    removeTree(folder)
    return works ? folder : nil
  }()

  @Test(.enabled(if: roomyFolder != nil, "needs /dev/shm with user xattrs"))
  func listsLongerThanTheFirstBufferAreReadWhole() throws {
    let folder = try #require(Self.roomyFolder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    defer { removeTree(folder) }
    let path = folder.appendingPathComponent("f").path
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    #expect(try ExtendedAttributes.names(atPath: path) == [])
    // 60 names of about 100 bytes: a 6 KiB list, past the 4 KiB first call.
    let names = (0..<60).map { "user." + String(repeating: "n", count: 95) + String($0) }
    for name in names {
      try ExtendedAttributes.set(Array(name.utf8), to: [1], atPath: path)
    }
    let listed = try ExtendedAttributes.names(atPath: path).map {
      String(decoding: $0, as: UTF8.self)
    }
    #expect(Set(listed) == Set(names))
    #expect(try ExtendedAttributes.value(of: Array(names[0].utf8), atPath: path) == [1])
    #expect(throws: SystemError(errno: ENODATA)) {
      try ExtendedAttributes.value(of: Array("user.missing".utf8), atPath: path)
    }
  }

  /// Whether the kernel has `listxattrat` (Linux 6.13).
  private static let hasListAt: Bool = {
    var name = utsname()
    uname(&name)
    let release = withUnsafeBytes(of: &name.release) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    let parts = release.split(separator: ".").prefix(2).compactMap {
      Int($0.prefix { $0.isNumber })
    }
    return parts.count == 2 && (parts[0], parts[1]) >= (6, 13)
  }()

  /// The length relative to an open folder is the list's length: 0 without attributes,
  /// `llistxattr`'s with some; a missing file or a link's target is not followed into.
  @Test(.enabled(if: roomyFolder != nil && hasListAt, "needs Linux 6.13 and /dev/shm xattrs"))
  func aListsLengthIsReadBelowAnOpenFolder() throws {
    let folder = try #require(Self.roomyFolder)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
    defer { removeTree(folder) }
    let plain = folder.appendingPathComponent("sub/plain").path
    let tagged = folder.appendingPathComponent("sub/tagged").path
    _ = FileManager.default.createFile(atPath: plain, contents: nil)
    _ = FileManager.default.createFile(atPath: tagged, contents: nil)
    try ExtendedAttributes.set(Array("user.tag".utf8), to: [1], atPath: tagged)
    let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    #expect(ExtendedAttributes.listLength(in: descriptor, name: "sub/plain") == 0)
    #expect(
      ExtendedAttributes.listLength(in: descriptor, name: "sub/tagged")
        == "user.tag\0".utf8.count)
    #expect(ExtendedAttributes.listLength(in: descriptor, name: "sub/missing") == nil)
    #expect(ExtendedAttributes.listLength(in: descriptor, name: "") == nil)
  }

  @Test func aMissingFileIsItsErrno() {
    #expect(throws: SystemError(errno: ENOENT)) {
      try ExtendedAttributes.names(atPath: "/nonexistent-folio-path")
    }
  }
}
