import FolioSystem
import Foundation
import PropertyLists
import Testing

/// Lays out a binary plist by hand: header, objects in order, offset table, trailer.
private func bplist(
  _ objects: [[UInt8]], top: UInt64 = 0, offsetSize: Int = 1, referenceSize: Int = 1,
  objectCount: UInt64? = nil, tableOffset: UInt64? = nil
) -> Data {
  var bytes = Array("bplist00".utf8)
  var offsets: [Int] = []
  for object in objects {
    offsets.append(bytes.count)
    bytes += object
  }
  let table = bytes.count
  for offset in offsets {
    for shift in stride(from: (offsetSize - 1) * 8, through: 0, by: -8) {
      bytes.append(UInt8(truncatingIfNeeded: offset >> shift))
    }
  }
  func be64(_ value: UInt64) -> [UInt8] {
    (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
  }
  bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
  bytes +=
    be64(objectCount ?? UInt64(objects.count)) + be64(top) + be64(tableOffset ?? UInt64(table))
  return Data(bytes)
}

private func readError(_ data: Data) -> PropertyListError? {
  #expect(throws: PropertyListError.self) { try PropertyListReader.read(data, file: "b.plist") }
}

@Suite struct BinaryReaderTests {
  @Test func readsEveryObjectKindWithByteOffsets() throws {
    let data = bplist([
      [0xDA] + Array(1...10) + Array(11...20),  // dict of 10 pairs at 8
      [0x54] + Array("bool".utf8), [0x53] + Array("int".utf8), [0x54] + Array("real".utf8),
      [0x54] + Array("date".utf8), [0x54] + Array("data".utf8), [0x53] + Array("str".utf8),
      [0x53] + Array("utf".utf8), [0x53] + Array("arr".utf8), [0x53] + Array("uid".utf8),
      [0x53] + Array("big".utf8),
      [0x09],
      [0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE],
      [0x22, 0x3F, 0xC0, 0x00, 0x00],
      [0x33, 0x41, 0xC1, 0x4F, 0x80, 0x00, 0x00, 0x00, 0x00],
      [0x42, 0xDE, 0xAD],
      [0x5F, 0x10, 0x0F] + Array("fifteen chars!!".utf8),
      [0x62, 0x00, 0xE9, 0xD8, 0x3D],  // unpaired: replaced below
      [0xA2, 11, 11],
      [0x80, 0x07],
      [0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
    ])
    // The same document with object 17 as a valid UTF-16 string, "é😀" (3 units).
    let valid = bplist([
      [0xDA] + Array(1...10) + Array(11...20),
      [0x54] + Array("bool".utf8), [0x53] + Array("int".utf8), [0x54] + Array("real".utf8),
      [0x54] + Array("date".utf8), [0x54] + Array("data".utf8), [0x53] + Array("str".utf8),
      [0x53] + Array("utf".utf8), [0x53] + Array("arr".utf8), [0x53] + Array("uid".utf8),
      [0x53] + Array("big".utf8),
      [0x09],
      [0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE],
      [0x22, 0x3F, 0xC0, 0x00, 0x00],
      [0x33, 0x41, 0xC1, 0x4F, 0x80, 0x00, 0x00, 0x00, 0x00],
      [0x42, 0xDE, 0xAD],
      [0x5F, 0x10, 0x0F] + Array("fifteen chars!!".utf8),
      [0x63, 0x00, 0xE9, 0xD8, 0x3D, 0xDE, 0x00],
      [0xA2, 11, 11],
      [0x80, 0x07],
      [0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
    ])
    let invalid = readError(data)
    #expect(invalid?.code == .invalidString)
    let document = try PropertyListReader.read(valid, file: "b.plist")
    let root = document.root
    #expect(document.format == .binary)
    #expect(root.location == SourceLocation(file: "b.plist", byteOffset: 8))
    #expect(root["bool"]?.boolValue == true)
    #expect(root["int"]?.content == .integer(-2))
    #expect(root["real"]?.content == .real(1.5))
    #expect(root["date"]?.content == .date(Date(timeIntervalSinceReferenceDate: 580_845_568)))
    #expect(root["data"]?.content == .data(Data([0xDE, 0xAD])))
    #expect(root["str"]?.stringValue == "fifteen chars!!")
    #expect(root["utf"]?.stringValue == "é😀")
    #expect(root["arr"]?.arrayValue?.count == 2)
    #expect(root["uid"]?["CF$UID"]?.content == .integer(7))
    #expect(root["big"]?.content == .unsignedInteger(.max))
    #expect(root.entry(forKey: "bool")?.keyLocation?.byteOffset == 29)
  }

  @Test(arguments: 1...8)
  func readsEveryOffsetAndReferenceWidth(_ width: Int) throws {
    let data = bplist(
      [
        [0xA2] + [UInt8](repeating: 0, count: width - 1) + [1]
          + [UInt8](repeating: 0, count: width - 1) + [2],
        [0x51, 0x61], [0x10, 0x05],
      ],
      offsetSize: width, referenceSize: width)
    let root = try PropertyListReader.read(data, file: "w").root
    #expect(root.arrayValue?.map(\.content) == [.string("a"), .integer(5)])
  }

  // MARK: One test per malformed class

  @Test func truncatedFile() throws {
    let error = try #require(readError(Data("bplist00\u{8}".utf8)))
    #expect(error.code == .truncatedBinary)
    #expect(error.message.hasPrefix("the file is 9 bytes, too short"))
    #expect(error.location == SourceLocation(file: "b.plist", byteOffset: 9))
  }

  @Test func truncatedInTheMiddleOfAnObject() throws {
    // A string declaring 14 bytes with only 2 before the offset table.
    let error = try #require(readError(bplist([[0x5E, 0x61, 0x62]])))
    #expect(error.code == .truncatedBinary)
    #expect(error.location?.byteOffset == 8)
    #expect(error.message.contains("string of the object at 8 needs 14 bytes at 9"))
  }

  @Test func offsetOutOfRange() throws {
    var data = bplist([[0xA1, 1], [0x09]])
    data[data.count - 32 - 1] = 0xF0  // object 1's offset now points past the object area
    let error = try #require(readError(data))
    #expect(error.code == .invalidOffset)
    #expect(error.message == "object 1 has offset 240, outside the object area 8..<11")
    #expect(error.location?.byteOffset == 12)
  }

  @Test func referenceOutOfRange() throws {
    let error = try #require(readError(bplist([[0xA1, 9]])))
    #expect(error.code == .invalidOffset)
    #expect(error.message == "reference 9 is not one of the 1 objects")
    #expect(error.location?.byteOffset == 9)
  }

  @Test func offsetTableOutOfRange() throws {
    let error = try #require(readError(bplist([[0x09]], tableOffset: 4000)))
    #expect(error.code == .invalidOffset)
    #expect(error.location?.byteOffset == 34)
  }

  @Test func referenceCycle() throws {
    let error = try #require(readError(bplist([[0xA1, 1], [0xA1, 0]])))
    #expect(error.code == .referenceCycle)
    #expect(error.message == "object 0 contains itself (a reference cycle)")
    #expect(error.location?.byteOffset == 11)
  }

  @Test func selfReferencingDictionary() throws {
    let error = try #require(readError(bplist([[0xD1, 1, 0], [0x51, 0x6B]])))
    #expect(error.code == .referenceCycle)
  }

  @Test func declaredObjectCountBeyondTheFile() throws {
    let error = try #require(readError(bplist([[0x09]], objectCount: 1 << 40)))
    #expect(error.code == .truncatedBinary)
    #expect(error.message.contains("declares 1099511627776 objects"))
    #expect(error.location?.byteOffset == 18)
  }

  @Test func declaredLengthBeyondTheFile() throws {
    // Data object whose extended length is 2^62.
    let error = try #require(
      readError(bplist([[0x4F, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]])))
    #expect(error.code == .truncatedBinary)
    #expect(error.message.contains("declares a length of 4611686018427387904"))
    #expect(error.location?.byteOffset == 8)
  }

  @Test func hugeArrayCountIsRefusedBeforeAllocating() throws {
    let error = try #require(
      readError(bplist([[0xAF, 0x13, 0, 0, 0, 0x10, 0, 0, 0, 0]])))
    #expect(error.code == .truncatedBinary)
  }

  @Test func badTrailerWidths() throws {
    let zeroOffset = try #require(readError(bplist([[0x09]], offsetSize: 1, referenceSize: 0)))
    #expect(zeroOffset.code == .invalidBinary)
    #expect(zeroOffset.location?.byteOffset == 17)
  }

  @Test func topObjectOutOfRange() throws {
    let error = try #require(readError(bplist([[0x09]], top: 3)))
    #expect(error.code == .invalidOffset)
    #expect(error.location?.byteOffset == 26)
  }

  @Test func unknownMarker() throws {
    let error = try #require(readError(bplist([[0x70]])))
    #expect(error.code == .invalidBinary)
    #expect(error.message.hasPrefix("marker 0x70 is not an object kind"))
    #expect(error.location?.byteOffset == 8)
  }

  @Test func nonStringKey() throws {
    let error = try #require(readError(bplist([[0xD1, 1, 2], [0x10, 1], [0x09]])))
    #expect(error.code == .invalidBinary)
    #expect(error.message == "a dictionary key is a integer, not a string")
    #expect(error.location?.byteOffset == 11)
  }

  @Test func duplicateKeyIsAWarning() throws {
    let document = try PropertyListReader.read(
      bplist([[0xD2, 1, 1, 2, 3], [0x51, 0x6B], [0x10, 1], [0x10, 2]]), file: "b.plist")
    #expect(document.root["k"]?.content == .integer(2))
    #expect(document.diagnostics.map(\.code) == [Diagnostic.duplicateKeyCode])
  }

  @Test func unsupportedVersion() throws {
    var data = bplist([[0x09]])
    data.replaceSubrange(6..<8, with: Array("15".utf8))
    let error = try #require(readError(data))
    #expect(error.code == .unsupportedFormat)
  }

  @Test func nestingBeyondTheLimit() throws {
    var objects: [[UInt8]] = []
    for index in 0..<20 { objects.append([0xA1, UInt8(index + 1)]) }
    objects.append([0x09])
    let error = #expect(throws: PropertyListError.self) {
      try PropertyListReader.read(bplist(objects), file: "b", options: .init(maximumDepth: 10))
    }
    #expect(error?.code == .tooDeep)
    #expect(error?.location?.byteOffset == 28)
  }

  @Test func sharedReferencesThatExplodeAreRefused() throws {
    // Each array holds its successor 15 times: 15^12 values once expanded.
    var objects: [[UInt8]] = []
    for index in 0..<12 {
      objects.append([0xAF, 0x10, 15] + [UInt8](repeating: UInt8(index + 1), count: 15))
    }
    objects.append([0x09])
    let error = try #require(readError(bplist(objects)))
    #expect(error.code == .invalidBinary)
    #expect(error.message.contains("shared references expand"))
  }

  @Test func sharedScalarsAreFine() throws {
    let root = try PropertyListReader.read(bplist([[0xA3, 1, 1, 1], [0x51, 0x78]]), file: "b").root
    #expect(root.arrayValue?.compactMap(\.stringValue) == ["x", "x", "x"])
  }
}
