import Archives
import Testing

@Suite struct ExpansionPolicyTests {
  @Test func permissionsDropSpecialBitsAndGroupOtherWrite() {
    #expect(ExpansionPolicy.permissions(fromEntryMode: 0o106777) == 0o755)
    #expect(ExpansionPolicy.permissions(fromEntryMode: 0o41777) == 0o755)
    #expect(ExpansionPolicy.permissions(fromEntryMode: 0o100640) == 0o640)
    #expect(ExpansionPolicy.permissions(fromEntryMode: 0o444) == 0o444)
  }

  @Test func defaultsAreDocumented() {
    let policy = ExpansionPolicy.default
    #expect(policy.maxTotalBytes == 16 << 30)
    #expect(policy.maxEntryCount == 1_000_000)
    #expect(policy.maxCompressionRatio == 1_000)
    #expect(!policy.allowsNameCollisions)
    #expect(policy.skipsAppleDouble)
  }
}
