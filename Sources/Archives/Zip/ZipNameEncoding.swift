/// How zip names stored without the UTF-8 flag are read.
///
/// The zip specification says such names are CP437; Windows tools wrote the system's code
/// page instead (CP932 in Japan, CP866 in Russia), and many tools write UTF-8 without the
/// flag. Names with the flag, or named by an Info-ZIP Unicode Path field, are UTF-8 whatever
/// this says.
public struct ZipNameEncoding: Hashable, Sendable, CustomStringConvertible {
  enum Kind: Hashable, Sendable {
    case specification
    case automatic
    case named(String)
  }

  let kind: Kind

  /// UTF-8 when the name is UTF-8, else CP437, as the specification says: the default.
  public static let specification = Self(kind: .specification)

  /// UTF-8 when every unflagged name is UTF-8; else the first of ``automaticCandidates``
  /// that reads every such name as letters of one script.
  public static let automatic = Self(kind: .automatic)

  /// The encodings ``automatic`` tries, in order: strict multibyte ones first (few byte
  /// sequences are valid in them by chance), then CP437's Latin letters, then the Cyrillic
  /// code pages.
  public static let automaticCandidates = ["CP932", "EUC-JP", "CP437", "KOI8-R", "CP866"]

  private init(kind: Kind) { self.kind = kind }

  /// An encoding by name: `auto`, or any encoding iconv knows (`CP932`, `KOI8-R`); CP437 is
  /// decoded by Folio's own table.
  ///
  /// - Parameter name: The name, in any case.
  /// - Throws: ``PackagingError`` (`unsupported-name-encoding`) when iconv does not know it.
  public init(_ name: String) throws {
    switch name.uppercased() {
    case "AUTO": kind = .automatic
    case "CP437", "IBM437", "437": kind = .named("CP437")
    default:
      guard IconvDecoder(from: name) != nil else {
        throw PackagingError(
          .unsupportedNameEncoding, "'\(name)' is not an encoding this system can read")
      }
      kind = .named(name.uppercased())
    }
  }

  public var description: String {
    switch kind {
    case .specification: "specification"
    case .automatic: "auto"
    case .named(let name): name
    }
  }
}

/// The decoding one archive's unflagged names get, settled before its records are read.
struct ZipLegacyNameDecoder {
  /// The encoding's name for messages, or `nil` when names are kept as UTF-8.
  let label: String?
  /// Whether a name that is already UTF-8 is decoded too (an encoding the user named).
  let decodesUTF8: Bool
  private let decode: ([UInt8]) -> [UInt8]?

  /// Settles the decoding.
  ///
  /// - Parameters:
  ///   - encoding: What was asked.
  ///   - legacyNames: For ``ZipNameEncoding/automatic``, every unflagged name that is not
  ///     UTF-8.
  /// - Throws: ``PackagingError`` (`invalid-name-encoding`) when no candidate reads every
  ///   name, naming the first.
  init(_ encoding: ZipNameEncoding, legacyNames: () throws -> [[UInt8]]) throws {
    switch encoding.kind {
    case .specification:
      (label, decodesUTF8, decode) = ("CP437", false, CodePage437.utf8)
    case .named(let name):
      (label, decodesUTF8, decode) = (name, true, Self.decoder(name))
    case .automatic:
      let names = try legacyNames()
      guard let first = names.first else {
        (label, decodesUTF8, decode) = (nil, false, { _ in nil })
        return
      }
      for name in ZipNameEncoding.automaticCandidates {
        let candidate = Self.decoder(name)
        if names.allSatisfy({ candidate($0).map { Self.readsAsOneScript($0, name) } ?? false }) {
          (label, decodesUTF8, decode) = (name, false, candidate)
          return
        }
      }
      throw PackagingError(
        .invalidNameEncoding,
        "entry \(EntryName(bytes: first).display) has a name that is not UTF-8, and none of \(ZipNameEncoding.automaticCandidates.joined(separator: ", ")) reads every name of the archive"
      )
    }
  }

  /// A name read in the encoding, or `nil` when it is not valid there.
  func utf8(_ bytes: [UInt8]) -> [UInt8]? { decode(bytes) }

  private static func decoder(_ name: String) -> ([UInt8]) -> [UInt8]? {
    if name == "CP437" { return CodePage437.utf8 }
    // The name was checked when the encoding was made; the decoder lives for one archive.
    guard let iconv = IconvDecoder(from: name) else { return { _ in nil } }
    return { iconv.utf8($0) }
  }

  /// Whether every character past ASCII is a letter of the script the encoding is for:
  /// what tells a right guess from bytes that merely decode.
  private static func readsAsOneScript(_ utf8: [UInt8], _ encoding: String) -> Bool {
    let scalars = String(decoding: utf8, as: UTF8.self).unicodeScalars.filter { !$0.isASCII }
    return scalars.allSatisfy { scalar in
      let value = scalar.value
      switch encoding {
      case "CP932", "EUC-JP":
        return (0x3000...0x30FF).contains(value) || (0x3400...0x4DBF).contains(value)
          || (0x4E00...0x9FFF).contains(value) || (0xFF00...0xFFEF).contains(value)
      case "CP437":
        return (0x00A0...0x024F).contains(value)
      default:
        return (0x0400...0x04FF).contains(value) || value == 0x2116
      }
    }
  }
}
