import Documents
import Foundation
import Testing
import UniformTypes

@Suite struct ContentSnifferTests {
  @Test func recognisesWhatFolioExports() {
    #expect(ContentSniffer.type(of: Data("bplist00\u{1}".utf8)) == .binaryPropertyList)
    #expect(
      ContentSniffer.type(
        of: Data("<?xml version=\"1.0\"?>\n<!DOCTYPE plist PUBLIC>\n<plist/>".utf8))
        == .xmlPropertyList)
    #expect(ContentSniffer.type(of: Data("<?xml version=\"1.0\"?><svg/>".utf8)) == .xml)
    #expect(ContentSniffer.type(of: Data("  {\"a\": 1}".utf8)) == .json)
    #expect(ContentSniffer.type(of: Data([0xFF, 0xFE, 0x41, 0x00])) == .utf16PlainText)
    #expect(
      ContentSniffer.type(of: Data([0xFE, 0xFF, 0x00, 0x41])) == .utf16ExternalPlainText)
    #expect(ContentSniffer.type(of: Data("Notes, café\n".utf8)) == .utf8PlainText)
  }

  @Test func binaryOrBrokenTextIsNothing() {
    #expect(ContentSniffer.type(of: Data([0x00, 0x01, 0x02, 0xFF])) == nil)
    #expect(ContentSniffer.type(of: Data([0x61, 0xC3, 0x28])) == nil)
  }

  @Test func aMultiByteCharacterCutAtThePrefixEndStillCountsAsText() {
    // "a" then two-byte "é"s: the prefix's last byte is the first half of one.
    let bytes = Data(("a" + String(repeating: "é", count: 3000)).utf8)
    #expect(bytes[ContentSniffer.prefixLength - 1] == 0xC3)
    #expect(ContentSniffer.type(of: bytes) == .utf8PlainText)
  }
}
