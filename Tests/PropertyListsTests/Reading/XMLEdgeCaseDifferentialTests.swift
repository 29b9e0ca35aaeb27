import Foundation
import PropertyLists
import Testing

/// Small documents on the edges of the format, read by Folio and by Foundation.
@Suite struct XMLEdgeCaseDifferentialTests {
  /// Inputs both readers must accept with equal values, or both refuse.
  static let agreed = [
    "<integer>+42</integer>", "<integer>0x1F</integer>", "<integer>-0x10</integer>",
    "<integer>18446744073709551615</integer>", "<integer>-9223372036854775808</integer>",
    "<integer>18446744073709551616</integer>", "<integer>-9223372036854775809</integer>",
    "<integer></integer>", "<integer>1.5</integer>", "<integer> 42 </integer>",
    "<real>1e400</real>", "<real>.5</real>", "<real>5.</real>", "<real>inf</real>",
    "<real>-Infinity</real>", "<real>0x1p3</real>", "<real></real>", "<real>1,5</real>",
    "<real> 1.5 </real>", "<date>2024-01-01T00:00:00Z</date>",
    "<date> 2024-01-01T00:00:00Z </date>", "<date>2024-01-01</date>",
    "<date>2024-01-01T00:00:00</date>", "<date>2024-02-30T00:00:00Z</date>",
    "<date>2024-01-01T24:00:00Z</date>", "<data>AAE=</data>", "<data>AA==AA==</data>",
    "<true>x</true>", "<true> </true>", "", "<string>a</string><string>b</string>",
    "<dict><key>a</key></dict>", "<dict><string>a</string></dict>",
    "<array>junk<string>a</string></array>", "<foo/>", "<string>a<!--c-->b</string>",
    "<string>a<true/>b</string>", "<string>&nbsp;</string>", "<key>k</key>",
    "<dict><key>a</key><key>b</key><true/></dict>", "<string>&#x1F600; &#65;</string>",
    "<array><dict/><array/><string/><true/><false/></array>",
  ]

  @Test(arguments: agreed)
  func agreesWithFoundation(_ body: String) throws {
    let data = Data("<plist>\(body)</plist>".utf8)
    let ours = try? PropertyListReader.read(data, file: "edge")
    let theirs = try? foundationPlainValue(data)
    #expect((ours == nil) == (theirs == nil), "Folio \(ours == nil ? "refuses" : "accepts")")
    if let ours, let theirs {
      #expect(PlainValue(ours.root) == theirs)
    }
  }

  /// Where Folio is deliberately stricter: Foundation on Linux silently decodes bad base64 to
  /// empty data; Folio refuses it, naming the character.
  @Test(arguments: ["<data>AA!E</data>", "<data>A</data>"])
  func refusesBase64FoundationMisreads(_ body: String) throws {
    let data = Data("<plist>\(body)</plist>".utf8)
    #expect(try foundationPlainValue(data) == .data(Data()))
    #expect(throws: PropertyListError.self) { try PropertyListReader.read(data, file: "edge") }
  }
}
