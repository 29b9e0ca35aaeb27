/// A zip entry's compression method (APPNOTE 4.4.5), and whether Folio reads it.
///
/// Folio reads what libarchive's zip reader reads, minus what cannot be
/// bounded or is never written by the tools people use: stored and DEFLATE
/// with zlib; bzip2, LZMA, xz and Zstandard through libarchive's decoders
/// of those streams. Deflate64, PPMd, IBM TERSE, WavPack, JPEG and the
/// older methods (shrink, reduce, implode) are refused by name, as are
/// encrypted entries (method 99, AES, or the encryption flags), whose
/// contents could only be read with a password Folio never asks for.
struct ZipCompressionMethod: Hashable, Sendable, CustomStringConvertible {
  /// The method number as stored.
  let rawValue: UInt16

  static let stored = Self(rawValue: 0)
  static let deflate = Self(rawValue: 8)
  static let deflate64 = Self(rawValue: 9)
  static let bzip2 = Self(rawValue: 12)
  static let lzma = Self(rawValue: 14)
  static let zstd = Self(rawValue: 93)
  static let xz = Self(rawValue: 95)
  static let ppmd = Self(rawValue: 98)
  static let aesEncrypted = Self(rawValue: 99)

  /// Whether Folio can decode entries of this method.
  var isSupported: Bool {
    [Self.stored, .deflate, .bzip2, .lzma, .zstd, .xz].contains(self)
  }

  /// The method, that Folio does not read it, and which tools do: what a refusal says
  /// after "compressed with".
  ///
  /// PPMd (7-Zip's and WinZip's `.zipx`) is refused: its decoder is a model of its own,
  /// which no library Folio links exposes outside libarchive's zip reader.
  var refusalDescription: String {
    let readers: String? =
      switch rawValue {
      case 9: "unzip and 7z"
      case 98: "7z and bsdtar"
      default: nil
      }
    return "\(self), which Folio does not read" + (readers.map { " (\($0) read it)" } ?? "")
  }

  /// The method's name as APPNOTE gives it.
  var description: String {
    switch rawValue {
    case 0: "stored"
    case 1: "shrink"
    case 2, 3, 4, 5: "reduce"
    case 6: "implode"
    case 8: "deflate"
    case 9: "Deflate64"
    case 10: "PKWARE DCL implode"
    case 12: "bzip2"
    case 14: "LZMA"
    case 16: "IBM z/OS CMPSC"
    case 18: "IBM TERSE"
    case 19: "IBM LZ77"
    case 93: "Zstandard"
    case 94: "MP3"
    case 95: "xz"
    case 96: "JPEG"
    case 97: "WavPack"
    case 98: "PPMd"
    case 99: "AES encryption"
    default: "method \(rawValue)"
    }
  }
}
