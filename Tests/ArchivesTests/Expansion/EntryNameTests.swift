import Archives
import Testing

@Suite struct EntryNameTests {
  @Test func displayEscapesControlCharactersAndInvalidBytes() {
    #expect(EntryName(bytes: Array("a\nb\u{1B}[31m".utf8)).display == #"'a\nb\u{1B}[31m'"#)
    #expect(EntryName(bytes: [0x61, 0xFF, 0x62]).display == #"'a\xFFb'"#)
    #expect(EntryName("pages/ページ.txt").display == "'pages/ページ.txt'")
    #expect(EntryName("a\u{202E}txt.exe").display == #"'a\u{202E}txt.exe'"#)
  }

  @Test func displayShortensLongNamesInTheMiddle() {
    let long = EntryName(String(repeating: "a", count: 100) + String(repeating: "b", count: 100))
    let shown = long.display
    #expect(shown.count == EntryName.displayLimit + 2)
    #expect(shown.hasPrefix("'aaa"))
    #expect(shown.hasSuffix("bbb'"))
    #expect(shown.contains("…"))
  }
}
