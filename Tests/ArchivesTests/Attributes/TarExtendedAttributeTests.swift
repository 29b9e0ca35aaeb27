import FolioSystem
import FolioTestSupport
import Foundation
import Testing

@testable import Archives

/// Extended attributes and ACLs through tar: Folio with itself, and with bsdtar and GNU
/// tar as oracles both ways.
@Suite(.enabled(if: ExtendedAttributeTestTree.isSupported, "needs user xattrs and ACLs"))
struct TarExtendedAttributeTests {
  static let hasBsdtar = programExists("bsdtar")
  static let hasGNUTar = (try? runProcess("tar", ["--version"]).outputText.contains("GNU")) == true

  private func expand(_ archive: URL, acls: Bool, into folder: URL) async throws
    -> ExpansionResult
  {
    var policy = ExpansionPolicy.default
    policy.restoresACLs = acls
    return try await Expander.expand(
      archive, into: folder, policy: policy, progress: .untracked())
  }

  @Test func folioTarKeepsAttributesAndACLs() async throws {
    try await withTemporaryDirectory("xattr-tar") { folder in
      let package = try ExtendedAttributeTestTree.make(in: folder)
      let archive = folder.appendingPathComponent("Pkg.tar")
      _ = try await Packer.pack(package, to: archive)
      let withACL = folder.appendingPathComponent("with")
      _ = try await expand(archive, acls: true, into: withACL)
      #expect(try ExtendedAttributeTestTree.differences(withACL, acl: true) == [])
      let without = folder.appendingPathComponent("without")
      let result = try await expand(archive, acls: false, into: without)
      #expect(try ExtendedAttributeTestTree.differences(without, acl: false) == [])
      #expect(result.warnings.map(\.code) == ["extended-attribute-withheld"])
    }
  }

  /// An update keeps a file whose bytes did not change as it was, unless its attributes did:
  /// then the archive's attributes are what the destination gets, as a fresh expand gives.
  @Test func updateTakesTheArchivesAttributesForAFileWhoseBytesAreUnchanged() async throws {
    try await withTemporaryDirectory("xattr-update") { folder in
      let package = try ExtendedAttributeTestTree.make(in: folder)
      let archive = folder.appendingPathComponent("Pkg.tar")
      _ = try await Packer.pack(package, to: archive)
      let destination = folder.appendingPathComponent("Out")
      _ = try await expand(archive, acls: true, into: destination)
      let file = destination.appendingPathComponent("a.txt")
      let before = try ExtendedAttributeTestTree.attributes(of: file)
      // Same bytes, same mode; only an attribute differs from the archive's.
      try ExtendedAttributes.set(
        Array("user.test".utf8), to: Array("changed".utf8), atPath: file.path)
      var policy = ExpansionPolicy.default
      policy.restoresACLs = true
      let result = try await Expander.expand(
        archive, into: destination, policy: policy, replacePolicy: .update, progress: .untracked())
      #expect(try ExtendedAttributeTestTree.attributes(of: file) == before)
      // The other file, attributes and bytes unchanged, is still kept.
      #expect(result.unchangedFileCount == 1)
    }
  }

  @Test func folioTarRecordsPaxAttributesAsPeersWrite() async throws {
    try await withTemporaryDirectory("xattr-tar-pax") { folder in
      let package = try ExtendedAttributeTestTree.make(in: folder)
      let archive = folder.appendingPathComponent("Pkg.tar")
      _ = try await Packer.pack(package, to: archive)
      // Python's tarfile reads the pax records as written: the oracle for their spelling.
      let script = """
        import sys, tarfile
        for m in tarfile.open(sys.argv[1]):
            for k, v in sorted(m.pax_headers.items()):
                if k.startswith(('SCHILY.', 'LIBARCHIVE.')): print(m.name, k, v)
        """
      let listing = try runProcess("python3", ["-c", script, archive.path])
      #expect(listing.status == 0, "\(listing.errorText)")
      let lines = Set(listing.outputText.split(separator: "\n").map(String.init))
      #expect(lines.contains("Pkg/a.txt SCHILY.xattr.user.test hello"))
      #expect(lines.contains("Pkg/a.txt LIBARCHIVE.xattr.user.test aGVsbG8"))
      #expect(lines.contains("Pkg/sub SCHILY.xattr.user.dir d"))
      #expect(
        lines.contains(
          "Pkg/a.txt SCHILY.acl.access user::rw-,group::r--,other::---,user:1234:r--,mask::rw-"))
      #expect(!lines.contains { $0.hasPrefix("Pkg/sub/b.txt") })
    }
  }

  @Test(.enabled(if: hasBsdtar)) func bsdtarRestoresWhatFolioWrites() async throws {
    try await withTemporaryDirectory("xattr-tar-bsdtar") { folder in
      let package = try ExtendedAttributeTestTree.make(in: folder)
      let archive = folder.appendingPathComponent("Pkg.tar")
      _ = try await Packer.pack(package, to: archive)
      let out = folder.appendingPathComponent("out")
      try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
      let run = try runProcess(
        "bsdtar", ["-xpf", archive.path, "--xattrs", "--acls", "-C", out.path])
      #expect(run.status == 0, "\(run.errorText)")
      #expect(
        try ExtendedAttributeTestTree.differences(out.appendingPathComponent("Pkg"), acl: true)
          == [])
    }
  }

  @Test(.enabled(if: hasGNUTar)) func gnuTarRestoresWhatFolioWrites() async throws {
    try await withTemporaryDirectory("xattr-tar-gnu") { folder in
      let package = try ExtendedAttributeTestTree.make(in: folder)
      let archive = folder.appendingPathComponent("Pkg.tar.gz")
      _ = try await Packer.pack(package, to: archive)
      let out = folder.appendingPathComponent("out")
      try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
      let run = try runProcess(
        "tar", ["--xattrs", "--xattrs-include=*", "--acls", "-xzf", archive.path, "-C", out.path])
      #expect(run.status == 0, "\(run.errorText)")
      #expect(
        try ExtendedAttributeTestTree.differences(out.appendingPathComponent("Pkg"), acl: true)
          == [])
    }
  }

  @Test(.enabled(if: hasBsdtar)) func folioRestoresWhatBsdtarWrites() async throws {
    try await withTemporaryDirectory("xattr-bsdtar-folio") { folder in
      _ = try ExtendedAttributeTestTree.make(in: folder)
      let archive = folder.appendingPathComponent("Pkg.tar.zst")
      let run = try runProcess(
        "bsdtar", ["--zstd", "-cf", archive.path, "-C", folder.path, "Pkg"])
      #expect(run.status == 0, "\(run.errorText)")
      let out = folder.appendingPathComponent("out")
      _ = try await expand(archive, acls: true, into: out)
      #expect(try ExtendedAttributeTestTree.differences(out, acl: true) == [])
    }
  }

  @Test(.enabled(if: hasGNUTar)) func folioRestoresWhatGNUTarWrites() async throws {
    try await withTemporaryDirectory("xattr-gnu-folio") { folder in
      let package = try ExtendedAttributeTestTree.make(in: folder)
      _ = package
      let archive = folder.appendingPathComponent("Pkg.tar")
      let run = try runProcess(
        "tar",
        [
          "--xattrs", "--xattrs-include=*", "--acls", "--format=posix", "-cf", archive.path, "-C",
          folder.path, "Pkg",
        ])
      #expect(run.status == 0, "\(run.errorText)")
      let out = folder.appendingPathComponent("out")
      _ = try await expand(archive, acls: true, into: out)
      #expect(try ExtendedAttributeTestTree.differences(out, acl: true) == [])
    }
  }

  /// A crafted tar with `security.capability`, `trusted.*` and `system.*` records: none is
  /// set, even though the tests run as root here (where setting them would succeed).
  @Test func privilegedNamespacesAreNeverRestored() async throws {
    try await withTemporaryDirectory("xattr-hostile") { folder in
      let archive = folder.appendingPathComponent("caps.tar")
      let script = """
        import io, sys, tarfile
        out = tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT)
        data = b'#!/bin/sh\\n'
        info = tarfile.TarInfo('tool')
        info.size = len(data)
        info.mode = 0o755
        info.pax_headers = {
            'SCHILY.xattr.security.capability': '\\x01\\x00\\x00\\x02\\x80',
            'SCHILY.xattr.trusted.overlay': 'x',
            'SCHILY.xattr.system.nfs4_acl': 'y',
            'SCHILY.xattr.user.ok': 'kept',
        }
        out.addfile(info, io.BytesIO(data))
        out.close()
        """
      let run = try runProcess("python3", ["-c", script, archive.path])
      #expect(run.status == 0, "\(run.errorText)")
      let out = folder.appendingPathComponent("out")
      var policy = ExpansionPolicy.default
      policy.restoresACLs = true
      let result = try await Expander.expand(
        archive, into: out, policy: policy, progress: .untracked())
      let attributes = try ExtendedAttributeTestTree.attributes(
        of: out.appendingPathComponent("tool"))
      #expect(attributes == ["user.ok": Array("kept".utf8)])
      let warning = try #require(result.warnings.first { $0.code == "extended-attribute-withheld" })
      #expect(warning.message.contains("3 extended attributes were not set"))
      #expect(
        ["security.capability", "trusted.overlay", "system.nfs4_acl"].contains {
          warning.message.contains("the first: '\($0)' of 'tool'")
        })
    }
  }

  /// A macOS tar's names have no namespace: they are set under `user.`.
  @Test func namesWithoutNamespaceBecomeUserAttributes() async throws {
    try await withTemporaryDirectory("xattr-macos-tar") { folder in
      let archive = folder.appendingPathComponent("mac.tar")
      let script = """
        import io, sys, tarfile
        out = tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT)
        info = tarfile.TarInfo('note.txt')
        info.size = 2
        info.pax_headers = {'SCHILY.xattr.com.apple.metadata:kMDItemWhereFroms': 'url'}
        out.addfile(info, io.BytesIO(b'hi'))
        out.close()
        """
      let run = try runProcess("python3", ["-c", script, archive.path])
      #expect(run.status == 0, "\(run.errorText)")
      let out = folder.appendingPathComponent("out")
      _ = try await Expander.expand(archive, into: out, progress: .untracked())
      #expect(
        try ExtendedAttributeTestTree.attributes(of: out.appendingPathComponent("note.txt"))
          == ["user.com.apple.metadata:kMDItemWhereFroms": Array("url".utf8)])
    }
  }

  /// Values past Linux's 64 KiB, and attributes past 256 an entry, are not set, with a
  /// warning counting them.
  @Test func attributesPastTheLimitsAreWarnedAbout() async throws {
    try await withTemporaryDirectory("xattr-limits") { folder in
      let archive = folder.appendingPathComponent("limits.tar")
      let script = """
        import io, sys, tarfile
        out = tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT)
        for name, headers in [
            ('huge.txt', {'SCHILY.xattr.user.huge': 'x' * 70000}),
            ('many.txt', {'SCHILY.xattr.user.a%03d' % i: 'v' for i in range(300)}),
        ]:
            info = tarfile.TarInfo(name)
            info.pax_headers = headers
            out.addfile(info, io.BytesIO(b''))
        out.close()
        """
      let run = try runProcess("python3", ["-c", script, archive.path])
      #expect(run.status == 0, "\(run.errorText)")
      let out = folder.appendingPathComponent("out")
      let result = try await Expander.expand(archive, into: out, progress: .untracked())
      let warning = try #require(result.warnings.first { $0.code == "extended-attribute-limit" })
      // The huge value, and the 44 past the first 256 of many.txt.
      #expect(warning.message.hasPrefix("45 extended attributes were not set"), "\(warning)")
      #expect(
        try ExtendedAttributeTestTree.attributes(of: out.appendingPathComponent("huge.txt")) == [:])
    }
  }

  /// bsdtar's `./` entry carries the packed folder's own attributes: they land on the
  /// destination folder.
  @Test(.enabled(if: hasBsdtar)) func theRootEntrysAttributesLandOnTheDestination() async throws {
    try await withTemporaryDirectory("xattr-root") { folder in
      let package = try ExtendedAttributeTestTree.make(in: folder)
      try ExtendedAttributes.set(Array("user.root".utf8), to: [7], atPath: package.path)
      let archive = folder.appendingPathComponent("dot.tar")
      let run = try runProcess("bsdtar", ["-cf", archive.path, "-C", package.path, "."])
      #expect(run.status == 0, "\(run.errorText)")
      let out = folder.appendingPathComponent("out")
      _ = try await expand(archive, acls: true, into: out)
      #expect(try ExtendedAttributeTestTree.attributes(of: out) == ["user.root": [7]])
      #expect(try ExtendedAttributeTestTree.differences(out, acl: true) == [])
    }
  }

  /// The `./` entry's access and default ACLs land on the destination folder when ACLs are
  /// restored, as the other folders' do, and not otherwise.
  @Test(.enabled(if: hasBsdtar)) func theRootEntrysACLsLandOnTheDestinationWhenAsked()
    async throws
  {
    try await withTemporaryDirectory("acl-root") { folder in
      let package = try ExtendedAttributeTestTree.make(in: folder)
      // The folder keeps mode 0755: r-x for the named user, the group and its mask.
      let access = PosixACL(entries: [
        .init(tag: .owner, permissions: 7), .init(tag: .user, permissions: 5, id: 1234),
        .init(tag: .owningGroup, permissions: 5), .init(tag: .mask, permissions: 5),
        .init(tag: .other, permissions: 5),
      ])
      let inherited = PosixACL(entries: [
        .init(tag: .owner, permissions: 7), .init(tag: .group, permissions: 7, id: 4321),
        .init(tag: .owningGroup, permissions: 5), .init(tag: .mask, permissions: 7),
        .init(tag: .other, permissions: 0),
      ])
      try ExtendedAttributes.set(
        Array(ExtendedAttribute.accessACLName.utf8), to: access.attributeValue,
        atPath: package.path)
      try ExtendedAttributes.set(
        Array(ExtendedAttribute.defaultACLName.utf8), to: inherited.attributeValue,
        atPath: package.path)
      let archive = folder.appendingPathComponent("dot.tar")
      let run = try runProcess("bsdtar", ["-cf", archive.path, "-C", package.path, "."])
      #expect(run.status == 0, "\(run.errorText)")
      func acls(of url: URL) throws -> (access: PosixACL?, inherited: PosixACL?) {
        let attributes = try ExtendedAttributeTestTree.attributes(of: url)
        return (
          attributes[ExtendedAttribute.accessACLName].flatMap(PosixACL.init),
          attributes[ExtendedAttribute.defaultACLName].flatMap(PosixACL.init)
        )
      }
      let restored = folder.appendingPathComponent("restored")
      _ = try await expand(archive, acls: true, into: restored)
      let withACLs = try acls(of: restored)
      #expect(withACLs.access == access, "\(String(describing: withACLs.access?.text))")
      #expect(withACLs.inherited == inherited, "\(String(describing: withACLs.inherited?.text))")
      #expect(try ExtendedAttributeTestTree.differences(restored, acl: true) == [])
      let plain = folder.appendingPathComponent("plain")
      _ = try await expand(archive, acls: false, into: plain)
      let withoutACLs = try acls(of: plain)
      #expect(withoutACLs.access == nil && withoutACLs.inherited == nil)
    }
  }

  @Test func noAttributesAreStoredWhenAskedNot() async throws {
    try await withTemporaryDirectory("xattr-off") { folder in
      let package = try ExtendedAttributeTestTree.make(in: folder)
      let archive = folder.appendingPathComponent("Pkg.tar")
      var options = PackOptions()
      options.storesExtendedAttributes = false
      _ = try await Packer.pack(package, to: archive, options: options)
      let out = folder.appendingPathComponent("out")
      _ = try await expand(archive, acls: true, into: out)
      #expect(
        try ExtendedAttributeTestTree.attributes(of: out.appendingPathComponent("a.txt")) == [:])
    }
  }
}
