import Foundation
import Testing

@testable import FolioCommands

@Suite struct DisplayWidthTests {
  @Test func asciiTakesOneColumnEach() {
    #expect(DisplayWidth.of("pages/a.txt") == 11)
  }

  @Test func cjkAndFullwidthTakeTwoColumns() {
    #expect(DisplayWidth.of("笔记本") == 6)
    #expect(DisplayWidth.of("ＡＢ") == 4)  // fullwidth Latin
    #expect(DisplayWidth.of("한국어") == 6)
    #expect(DisplayWidth.of("😀") == 2)
  }

  @Test func combiningMarksTakeNoColumn() {
    #expect(DisplayWidth.of("e\u{301}") == 1)  // one grapheme: e + combining acute
    #expect(DisplayWidth.of(Unicode.Scalar(0x301)!) == 0)
    #expect(DisplayWidth.of(Unicode.Scalar(0x200B)!) == 0)
    #expect(DisplayWidth.of("👩‍💻") == 2)  // a ZWJ sequence is one wide cell
  }

  @Test func middleTruncationKeepsTheEndAndFits() {
    let path = "pages/0123456789abcdef/notes-about-everything.txt"
    let short = DisplayWidth.middleTruncated(path, fitting: 20)
    #expect(DisplayWidth.of(short) <= 20)
    #expect(short.contains("…"))
    #expect(short == "pages/…verything.txt")
    #expect(short.hasPrefix("pages"))
    #expect(DisplayWidth.middleTruncated("short.txt", fitting: 20) == "short.txt")
  }

  @Test func middleTruncationNeverSplitsAWideCharacterOverTheLimit() {
    let path = "笔记本/页面/第一页的内容.txt"
    for columns in 1...DisplayWidth.of(path) {
      #expect(DisplayWidth.of(DisplayWidth.middleTruncated(path, fitting: columns)) <= columns)
    }
  }
}

@Suite struct TerminalSizeTests {
  @Test func resizeSignalReachesTheWatcher() async throws {
    let resizes = TerminalSize.resizes()
    let received = Task {
      for await _ in resizes { return true }
      return false
    }
    // The source is armed on its queue asynchronously: signal the process until it arrives.
    let sender = Task {
      for _ in 0..<100 {
        kill(getpid(), SIGWINCH)
        try await Task.sleep(for: .milliseconds(20))
      }
    }
    #expect(await received.value)
    sender.cancel()
  }

  @Test func columnsOfANonTerminalAreUnknown() throws {
    let pipe = Pipe()
    #expect(TerminalSize.columns(of: pipe.fileHandleForWriting.fileDescriptor) == nil)
    #expect(OutputSink.buffer(isTerminal: true, columns: 33).columns == 33)
    #expect(OutputSink.buffer(isTerminal: false, columns: 33).columns == nil)
  }
}
