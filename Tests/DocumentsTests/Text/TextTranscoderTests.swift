import Documents
import FolioSystem
import FolioTestSupport
import Foundation
import Testing

@Suite struct TextTranscoderTests {
  private let sample = "Café — naïve\n日本語 😀\n"

  @Test func utf8ToUTF16LittleEndianWritesByteOrderMarkAndMatchesFoundation() throws {
    let output = try TextTranscoder(from: .utf8, to: .utf16LittleEndian, file: "a.txt")
      .transcode(Data(sample.utf8))
    #expect(output.prefix(2) == Data([0xFF, 0xFE]))
    #expect(output.dropFirst(2) == sample.data(using: .utf16LittleEndian))
  }

  @Test func utf16BigEndianBackToUTF8IsIdentical() throws {
    let utf16 = try TextTranscoder(from: .utf8, to: .utf16BigEndian, file: "a.txt")
      .transcode(Data(sample.utf8))
    #expect(utf16.prefix(2) == Data([0xFE, 0xFF]))
    let back = try TextTranscoder(from: .utf16LittleEndian, to: .utf8, file: "a.txt").transcode(
      utf16)
    #expect(back == Data(sample.utf8))
  }

  @Test func latin1RoundTripsWhenEveryCharacterFits() throws {
    let text = "Ærø, façade, ½ £\n"
    let latin1 = try TextTranscoder(from: .utf8, to: .latin1, file: "a.txt").transcode(
      Data(text.utf8))
    #expect(latin1 == text.data(using: .isoLatin1))
    let back = try TextTranscoder(from: .latin1, to: .utf8, file: "a.txt").transcode(latin1)
    #expect(back == Data(text.utf8))
  }

  @Test func lossyLatin1ConversionIsRefusedAtFirstOffendingCharacter() throws {
    let text = "first line\nsecond: café ok, then € here\n"
    let error = #expect(throws: ExportError.self) {
      try TextTranscoder(from: .utf8, to: .latin1, file: "notes.txt").transcode(Data(text.utf8))
    }
    #expect(error?.code == .lossyConversion)
    #expect(error?.location == SourceLocation(file: "notes.txt", line: 2, column: 23))
    #expect(error?.message.contains("U+20AC") == true)
    #expect(error?.message.contains("line 2, column 23") == true)
  }

  @Test func invalidUTF8IsRefusedWithItsPosition() throws {
    var bytes = Data("ok\nab".utf8)
    bytes.append(contentsOf: [0xC3, 0x28])
    let error = #expect(throws: ExportError.self) {
      try TextTranscoder(from: .utf8, to: .utf16LittleEndian, file: "bad.txt").transcode(bytes)
    }
    #expect(error?.code == .invalidText)
    #expect(error?.location == SourceLocation(file: "bad.txt", line: 2, column: 3))
  }

  @Test func overlongAndSurrogateUTF8FormsAreRefused() {
    for bytes: [UInt8] in [
      [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
    ] {
      #expect(throws: ExportError.self) {
        try TextTranscoder(from: .utf8, to: .utf8, file: "x").transcode(Data(bytes))
      }
    }
  }

  @Test func loneSurrogateInUTF16IsRefused() {
    let bytes = Data([0xFF, 0xFE, 0x41, 0x00, 0x00, 0xD8, 0x41, 0x00])
    let error = #expect(throws: ExportError.self) {
      try TextTranscoder(from: .utf16LittleEndian, to: .utf8, file: "u.txt").transcode(bytes)
    }
    #expect(error?.code == .invalidText)
  }

  @Test func byteOrderMarkOverridesDeclaredEncodingAndUTF8MarkIsDropped() throws {
    let marked = Data([0xEF, 0xBB, 0xBF]) + Data("hi".utf8)
    #expect(
      try TextTranscoder(from: .utf8, to: .utf8, file: "x").transcode(marked) == Data("hi".utf8))
    let bigEndian = Data([0xFE, 0xFF, 0x00, 0x68, 0x00, 0x69])
    #expect(
      try TextTranscoder(from: .utf16LittleEndian, to: .utf8, file: "x").transcode(bigEndian)
        == Data("hi".utf8))
  }

  @Test func fileConversionStreamsAcrossChunkBoundaries() throws {
    try withTemporaryDirectoryBlocking { folder in
      // Multi-byte characters straddle every 64 KiB boundary somewhere in 300 KiB.
      let text = String(repeating: "aé日😀\n", count: 30_000)
      let input = folder.appendingPathComponent("in.txt")
      try Data(text.utf8).write(to: input)
      let outputURL = folder.appendingPathComponent("out.txt")
      _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
      let handle = try FileHandle(forWritingTo: outputURL)
      var consumed = 0
      try TextTranscoder(from: .utf8, to: .utf16BigEndian, file: "in.txt")
        .transcode(
          contentsOf: input,
          to: ExportOutputFile(fileDescriptor: handle.fileDescriptor, displayName: "out.txt")
        ) { consumed += $0 }
      try handle.close()
      #expect(consumed == text.utf8.count)
      let written = try Data(contentsOf: outputURL)
      #expect(written.dropFirst(2) == text.data(using: .utf16BigEndian))
    }
  }
}
