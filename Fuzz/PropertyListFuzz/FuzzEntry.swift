// libFuzzer entry point for Folio's property list readers and writers.
//
// Built by scripts/fuzz/plist.sh together with the PropertyLists sources into one
// executable (swiftc -sanitize=fuzzer,address); it is not part of `swift build`.
// Each input is read as-is (format detected from its bytes) and, with the first
// byte as a selector, also as the body of a binary or XML property list, so the
// fuzzer reaches each reader quickly. Whatever reads successfully must survive
// every writer: what a writer accepts must read back to an equal value.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func propertyListFuzzTestOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
  let input = Data(bytes: bytes, count: count)
  PropertyListFuzzCheck.check(input)
  if let selector = input.first {
    let body = input.dropFirst()
    switch selector % 3 {
    case 0: PropertyListFuzzCheck.check(Data("bplist00".utf8) + body)
    case 1: PropertyListFuzzCheck.check(Data("<plist>".utf8) + body + Data("</plist>".utf8))
    default: break
    }
  }
  return 0
}

/// The invariants every input must keep.
enum PropertyListFuzzCheck {
  static func check(_ data: Data) {
    let options = PropertyListReadOptions(maximumInputSize: 1 << 20, maximumDepth: 64)
    guard let document = try? PropertyListReader.read(data, file: "fuzz", options: options) else {
      return
    }
    for format in PropertyListFormat.writable {
      guard let written = try? PropertyListWriter.data(for: document.root, format: format) else {
        continue
      }
      let reread: PropertyListDocument
      do {
        reread = try PropertyListReader.read(written, file: "rewritten", options: .init())
      } catch {
        fatalError("\(format) output of an accepted input does not read back: \(error)")
      }
      let expected = format == .xml ? wholeSecondDates(document.root) : document.root
      if format != .json && reread.root != expected {
        fatalError("\(format) round trip changed the value")
      }
    }
  }

  /// The value as XML can carry it: dates to the whole second (the format has no fractions).
  static func wholeSecondDates(_ value: PropertyListValue) -> PropertyListValue {
    switch value.content {
    case .date(let date):
      return PropertyListValue(
        .date(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))))
    case .array(let items): return PropertyListValue(.array(items.map(wholeSecondDates)))
    case .dictionary(let entries):
      return PropertyListValue(
        .dictionary(entries.map { .init(key: $0.key, value: wholeSecondDates($0.value)) }))
    default: return value
    }
  }
}
