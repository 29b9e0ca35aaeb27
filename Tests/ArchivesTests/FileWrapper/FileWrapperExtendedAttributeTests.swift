import Documents
import FolioSystem
import FolioTestSupport
import Foundation
import Testing

@testable import Archives

/// A file wrapper keeps its items' extended attributes in `fileAttributes` and writes them
/// back.
@Suite(.enabled(if: ExtendedAttributeTestTree.isSupported, "needs user xattrs and ACLs"))
struct FileWrapperExtendedAttributeTests {
  @Test func readingRecordsAttributesAndWritingSetsThemBack() async throws {
    try await withTemporaryDirectory("wrapper-xattr") { folder in
      let package = try ExtendedAttributeTestTree.make(in: folder)
      let wrapper = try FileWrapper(url: package)
      let file = try #require(wrapper.fileWrappers?["a.txt"])
      let table = file.fileAttributes[FileWrapper.extendedAttributesKey] as? [String: Data]
      #expect(table?["user.test"] == Data("hello".utf8))
      #expect(table?[ExtendedAttribute.accessACLName] != nil)
      #expect(
        wrapper.fileWrappers?["sub"]?.fileWrappers?["b.txt"]?.fileAttributes[
          FileWrapper.extendedAttributesKey] == nil)
      let copy = folder.appendingPathComponent("copy")
      try wrapper.write(to: copy, options: [], originalContentsURL: nil)
      #expect(try ExtendedAttributeTestTree.differences(copy, acl: true) == [])
    }
  }

  @Test func wrapperReadFromATarHoldsItsAttributes() async throws {
    try await withTemporaryDirectory("wrapper-xattr-tar") { folder in
      let package = try ExtendedAttributeTestTree.make(in: folder)
      let archive = folder.appendingPathComponent("Pkg.tar")
      _ = try await Packer.pack(package, to: archive)
      let wrapper = try FileWrapper(archiveAt: archive)
      let copy = folder.appendingPathComponent("copy")
      try wrapper.write(to: copy, options: [], originalContentsURL: nil)
      // The default policy leaves ACLs out, as expand does.
      #expect(try ExtendedAttributeTestTree.differences(copy, acl: false) == [])
    }
  }
}
