public import Foundation
public import UniformTypes

/// Tells a file's type from its first bytes, for inputs with no telling name (standard input,
/// a file without an extension).
public enum ContentSniffer {
  /// How many leading bytes are looked at.
  public static let prefixLength = 4096

  /// The type the bytes look like, or `nil` when they look like nothing Folio exports.
  ///
  /// Binary property lists (`bplist`), XML property lists (an XML declaration and a
  /// `plist` element or doctype), JSON (an object or array), UTF-16 text with a
  /// byte-order mark, and UTF-8 text (with or without a mark) are recognised.
  ///
  /// - Parameter prefix: The first bytes (up to ``prefixLength``).
  /// - Returns: The type, or `nil`.
  public static func type(of prefix: Data) -> TypeIdentifier? {
    let bytes = [UInt8](prefix.prefix(prefixLength))
    if bytes.starts(with: Array("bplist".utf8)) { return .binaryPropertyList }
    if bytes.starts(with: [0xFF, 0xFE]) { return .utf16PlainText }
    if bytes.starts(with: [0xFE, 0xFF]) { return "public.utf16-external-plain-text" }
    var body = bytes[...]
    if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
    guard isUTF8(body, complete: prefix.count <= prefixLength) else { return nil }
    let text = String(decoding: body, as: UTF8.self)
    let trimmed = text.drop { $0.isWhitespace }
    if trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<!DOCTYPE") || trimmed.hasPrefix("<plist") {
      return text.contains("<plist") || text.contains("DOCTYPE plist") ? .xmlPropertyList : .xml
    }
    if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return .json }
    return .utf8PlainText
  }

  /// Whether bytes are UTF-8; a sequence cut off at the end counts when more bytes may follow.
  static func isUTF8(_ bytes: ArraySlice<UInt8>, complete: Bool) -> Bool {
    var data = Data(bytes)
    if !complete {
      // Drop a possibly cut final sequence (at most three bytes of one).
      var cut = 0
      for byte in bytes.suffix(3).reversed() {
        cut += 1
        if byte & 0xC0 != 0x80 {
          if byte >= 0xC0 { data = Data(bytes.dropLast(cut)) }
          break
        }
      }
    }
    if data.contains(0) { return false }
    return (try? TextTranscoder(from: .utf8, to: .utf8, file: "-").transcode(data)) != nil
  }
}
