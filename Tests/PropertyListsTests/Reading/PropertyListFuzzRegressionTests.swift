import Foundation
import PropertyLists
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Replays the inputs the property-list fuzzer once broke on, asserting what each must do now.
///
/// Every file in `Fixtures/Fuzz` (but its README) has an entry in ``expected``, and every entry a
/// file: a fixture that goes missing, or a new one kept without saying what it must do, fails.
/// Each input is read as the fuzz harness reads it (as is, behind a binary header, and for
/// some selectors wrapped in `<plist>`); each reading is either accepted, and then every writer's
/// output reads back to an equal value, or refused with a stable code.
@Suite struct PropertyListFuzzRegressionTests {
  /// What reading one variant of a fixture must do.
  enum Outcome: Equatable, CustomStringConvertible {
    /// Read; what any writer writes reads back equal.
    case accepted
    /// Refused with this code.
    case refused(String)

    var description: String {
      switch self {
      case .accepted: "accepted"
      case .refused(let code): "refused with \(code)"
      }
    }
  }

  /// How the harness turns one fuzz input into the bytes it reads (its first byte selects).
  enum Variant: String, CaseIterable, CustomStringConvertible {
    /// The input itself.
    case asIs
    /// `bplist00` in place of the selector byte.
    case binaryHeader
    /// `<plist>` … `</plist>` around the rest, when the selector is 1 modulo 3.
    case wrappedInPlist

    var description: String { rawValue }

    func bytes(of input: Data) -> Data? {
      switch self {
      case .asIs: return input
      case .binaryHeader: return input.isEmpty ? nil : Data("bplist00".utf8) + input.dropFirst()
      case .wrappedInPlist:
        guard let selector = input.first, selector % 3 == 1 else { return nil }
        return Data("<plist>".utf8) + input.dropFirst() + Data("</plist>".utf8)
      }
    }
  }

  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/Fuzz")

  /// Each kept input and what every variant of it must do now.
  static let expected: [String: [Variant: Outcome]] = [
    // Binary property lists holding dates: the XML writer once wrote dates outside its year
    // range (it now refuses them as unrepresentable, and the binary writer carries them).
    "crash-b24422722dc3c4a01f30c58a1c7606a24ceda06e": [
      .asIs: .accepted, .binaryHeader: .accepted,
    ],
    "crash-d20e820ed25ae20e1804b107f8cb718879aa840f": [
      .asIs: .accepted, .binaryHeader: .refused("invalid-offset"),
    ],
    // A binary property list whose 8-byte offset-table entry exceeds Int.max: converting it
    // trapped before it was compared with the object area.
    "crash-f18b1ea1d45ef5a2db7ed2e94b7b7b2de7472215": [
      .asIs: .refused("invalid-offset"), .binaryHeader: .refused("invalid-offset"),
    ],
    // JSON Info.plist-like objects with many (and repeated) keys, slow under load.
    "slow-unit-57b3467b8ee4a80fd7638f5ed8603d5971cfd37d": [
      .asIs: .accepted, .binaryHeader: .refused("invalid-binary"),
    ],
    "slow-unit-2b48fb4de3f9f3d877b2de967c591be356eef797": [
      .asIs: .accepted, .binaryHeader: .refused("invalid-binary"),
    ],
    "timeout-dd2c4bce08960c301e0ea0d87c339574ca60ce80": [
      .asIs: .accepted, .binaryHeader: .refused("invalid-binary"),
    ],
  ]

  /// The processor time one `timeout-`/`slow-unit-` reading may take.
  ///
  /// The fuzzer's slow-unit threshold (`-report_slow_units=2`). Processor time, not wall time,
  /// so a loaded machine does not make it fail; the inputs take about 40 ms.
  static let slowInputBound: Duration = .seconds(2)

  static let readOptions = PropertyListReadOptions(maximumInputSize: 1 << 20, maximumDepth: 64)

  @Test func everyKeptInputHasAnExpectedOutcomeAndEveryExpectedInputIsKept() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
      .filter { $0 != "README.md" }
    #expect(Set(names) == Set(Self.expected.keys))
    #expect(names.count >= 4)
  }

  @Test(arguments: expected.keys.sorted())
  func keptFuzzInputHasItsExpectedOutcome(_ name: String) throws {
    let input = try Data(contentsOf: Self.folder.appendingPathComponent(name))
    let outcomes = try #require(Self.expected[name])
    for variant in Variant.allCases {
      guard let bytes = variant.bytes(of: input) else {
        #expect(outcomes[variant] == nil, "\(variant) does not apply to \(name)")
        continue
      }
      let expected = try #require(outcomes[variant], "no outcome given for \(name) \(variant)")
      let start = Self.processorTime()
      let actual = try Self.outcome(of: bytes)
      let spent = Self.processorTime() - start
      #expect(actual == expected, "\(name) \(variant)")
      if name.hasPrefix("timeout-") || name.hasPrefix("slow-unit-") {
        #expect(spent < Self.slowInputBound, "\(name) \(variant) took \(spent) of processor time")
      }
    }
  }

  /// Reads the bytes as the fuzz harness does; when accepted, checks its invariant: what any
  /// writer writes reads back equal (JSON may turn integral reals into integers, so it only has
  /// to read back).
  static func outcome(of data: Data) throws -> Outcome {
    let document: PropertyListDocument
    do {
      document = try PropertyListReader.read(data, file: "fuzz", options: readOptions)
    } catch let error as PropertyListError {
      #expect(error.location?.file == "fuzz", "a refusal names the input")
      return .refused(error.code.rawValue)
    }
    try checkRoundTrip(document.root)
    return .accepted
  }

  static func checkRoundTrip(_ root: PropertyListValue) throws {
    var written = 0
    for format in PropertyListFormat.writable {
      let bytes: Data
      do {
        bytes = try PropertyListWriter.data(for: root, format: format)
      } catch let error as PropertyListError {
        // A format that cannot hold a value refuses it; it never writes something else.
        #expect(error.code == .unrepresentable, "\(format): \(error)")
        continue
      }
      written += 1
      let reread = try PropertyListReader.read(bytes, file: "rewritten")
      let expected = format == .xml ? wholeSecondDates(root) : root
      if format != .json { #expect(reread.root == expected, "\(format)") }
    }
    #expect(written >= 1, "the binary writer holds every value")
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

  /// The calling thread's processor time.
  static func processorTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
  }

  @Test func writersRoundTripStringsXMLCannotCarryOrThatNeedEscaping() throws {
    for text in ["a\r\nb", "]]>", "\u{FFFE}", "tab\there", "😀", "&#13;"] {
      let bytes = try PropertyListWriter.data(
        for: PropertyListValue(.array([PropertyListValue(.string(text))])), format: .binary)
      #expect(try Self.outcome(of: bytes) == .accepted, "\(text.debugDescription)")
    }
  }
}
