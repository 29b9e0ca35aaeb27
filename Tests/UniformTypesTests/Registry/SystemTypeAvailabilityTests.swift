import Testing

@testable import UniformTypes

/// The first versions of Apple's systems that declare a system type, as the table records them.
@Suite struct SystemTypeAvailabilityTests {
  typealias Version = SystemTypeAvailability.Version

  @Test func theIssuesExamplesHaveTheirDocumentedFirstVersions() throws {
    let markdown = try #require(SystemTypeAvailability.of("net.daringfireball.markdown"))
    #expect(markdown.macOS == Version("27.0"))
    #expect(markdown.iOS == Version("27.0"))
    let heic = try #require(SystemTypeAvailability.of("PUBLIC.HEIC"))
    #expect(heic.macOS == Version("10.13"))
    #expect(heic.iOS == Version("11"))
  }

  @Test func typesEveryTargetableVersionDeclaresHaveNone() {
    #expect(SystemTypeAvailability.of("public.plain-text") == nil)
    #expect(SystemTypeAvailability.of("com.apple.live-photo") == nil)
  }

  @Test func everyVersionedTypeIsASystemType() {
    for line in SystemTypeTable.availabilityRows.split(separator: "\n") {
      let identifier = TypeIdentifier(String(line.split(separator: "\t")[0]))
      #expect(TypeRegistry.system.isDeclared(identifier), "\(identifier)")
      #expect(SystemTypeAvailability.of(identifier) != nil, "\(identifier)")
    }
  }

  @Test func versionsCompareNumericallyPartByPart() throws {
    #expect(try #require(Version("10.9")) < #require(Version("10.13")))
    #expect(try #require(Version("12")) == #require(Version("12.0.0")))
    #expect(try #require(Version("15.2")) > #require(Version("15.1.9")))
    #expect(Set([Version("11"), Version("11.0")]).count == 1)
  }

  @Test(arguments: ["", "12.", ".5", "12.x", "$(MACOSX_DEPLOYMENT_TARGET)", "1.2.3.4.5", "1234567"])
  func anythingButDottedNumbersIsNoVersion(_ text: String) {
    #expect(Version(text) == nil)
  }
}
