import Testing

@testable import Archives

/// The name mapping between macOS and Linux, the restore rule, and the ACL forms.
@Suite struct ExtendedAttributeNameTests {
  @Test(arguments: [
    "com.apple.metadata:_kMDItemUserTags", "com.apple.FinderInfo", "user.already", "x",
  ])
  func macOSNamesSurviveLinuxAndBack(name: String) {
    let linux = ExtendedAttribute.linuxName(fromMacOS: name)
    #expect(linux.hasPrefix("user."))
    #expect(ExtendedAttribute.macOSName(fromLinux: linux) == name)
  }

  @Test func storedNamesKeepALinuxNamespaceAndOthersGetUser() {
    #expect(ExtendedAttribute.linuxName(fromStored: "user.a") == "user.a")
    #expect(
      ExtendedAttribute.linuxName(fromStored: "security.capability") == "security.capability")
    #expect(
      ExtendedAttribute.linuxName(fromStored: "com.apple.quarantine") == "user.com.apple.quarantine"
    )
    #expect(ExtendedAttribute.macOSName(fromLinux: "trusted.x") == nil)
  }

  @Test func onlyUserAttributesAndAskedForACLsAreRestorable() {
    func restorable(_ name: String, acls: Bool) -> Bool {
      ExtendedAttribute(name: name, value: []).isRestorable(acls: acls)
    }
    #expect(restorable("user.a", acls: false))
    #expect(!restorable("user.", acls: true))
    #expect(!restorable("security.capability", acls: true))
    #expect(!restorable("trusted.overlay.opaque", acls: true))
    #expect(!restorable("system.nfs4_acl", acls: true))
    #expect(!restorable(ExtendedAttribute.accessACLName, acls: false))
    #expect(restorable(ExtendedAttribute.accessACLName, acls: true))
    #expect(restorable(ExtendedAttribute.defaultACLName, acls: true))
  }

  @Test func aclBinaryFormRoundTripsAndReadsAsText() throws {
    let acl = ExtendedAttributeTestTree.acl
    let bytes = acl.attributeValue
    #expect(bytes.count == 4 + 8 * 5)
    #expect(Array(bytes[0..<4]) == [2, 0, 0, 0])
    #expect(PosixACL(attributeValue: bytes) == acl)
    #expect(acl.text == "user::rw-,user:1234:r--,group::r--,mask::rw-,other::---")
    #expect(PosixACL(attributeValue: [1, 0, 0, 0]) == nil)
    #expect(PosixACL(attributeValue: Array(bytes.dropLast())) == nil)
    var badTag = bytes
    badTag[4] = 0x40
    #expect(PosixACL(attributeValue: badTag) == nil)
  }

  @Test func displayValuesQuoteTextAndSpellBytesInHex() {
    #expect(
      ExtendedAttribute(name: "user.a", value: Array("hi \"x\"".utf8)).displayValue
        == "\"hi \\\"x\\\"\"")
    #expect(ExtendedAttribute(name: "user.a", value: [0, 0xFF]).displayValue == "0x00ff")
  }
}
