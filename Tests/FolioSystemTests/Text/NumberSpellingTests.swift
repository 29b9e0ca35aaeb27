import Foundation
import Testing

@testable import FolioSystem

/// The replacements for `String(format:)` spell numbers as C's printf does, checked against
/// corelibs Foundation's `String(format:)` itself (tests may link it; the command may not).
@Suite struct NumberSpellingTests {
  @Test func integersSpellAsPrintfWithZeroPadding() {
    for value in [0, 7, 0x41, 0xFF, 0x1F600, 123_456] {
      #expect(value.digits(4, radix: 16) == String(format: "%04X", value))
      #expect(value.digits(4, radix: 16, uppercase: false) == String(format: "%04x", value))
      #expect(value.digits(2) == String(format: "%02d", value))
      #expect(value.digits(1) == String(format: "%d", value))
    }
    // A negative value: the sign before the digits (printf would count it in the width
    // and print hexadecimal as two's complement; folio spells no negative number so).
    #expect((-7).digits(3) == "-007")
    #expect((-0x2A).digits(4, radix: 16) == "-002A")
    #expect(UInt8(0x0C).digits(2, radix: 16) == "0C")
    #expect(UInt32(0xD83D).digits(4, radix: 16) == "D83D")
  }

  @Test func fractionsSpellAsPrintfOffExactTies() {
    // Values a binary Double holds near but not exactly on a half, where printf and
    // rounding half away from zero agree.
    let values: [Double] = [
      0, 1, 12.34, 4.06, 1023.96, 999.949, 0.001, 3.14159, 2.675, 123456.789, -1.04, -2.6,
    ]
    for value in values {
      #expect(value.fractionDigits(1) == String(format: "%.1f", value), "\(value)")
      #expect(value.fractionDigits(3) == String(format: "%.3f", value), "\(value)")
      #expect(value.fractionDigits(0) == String(format: "%.0f", value), "\(value)")
    }
  }

  @Test func fractionsRoundHalvesAwayFromZeroAndKeepTheSignOfNonZeroResults() {
    #expect(0.25.fractionDigits(1) == "0.3")
    #expect((-0.25).fractionDigits(1) == "-0.3")
    #expect((-0.04).fractionDigits(1) == "0.0")
    #expect(9.96.fractionDigits(1) == "10.0")
    #expect(Double.infinity.fractionDigits(1) == "inf")
  }

  @Test func trimmingMatchesFoundationsWhitespaceSets() {
    let samples = [
      "", "   ", "plain", "  both  ", "\n\t line \r\n", " inner  space ", "\u{00A0}nbsp\u{2003}",
      "\u{2028}separator\u{2029}", "é\u{0301} ",
    ]
    for text in samples {
      #expect(
        text.trimming(while: \.isWhitespace)
          == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
      #expect(
        text.trimming(while: { $0.isWhitespace && !$0.isNewline })
          == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
    }
  }
}
