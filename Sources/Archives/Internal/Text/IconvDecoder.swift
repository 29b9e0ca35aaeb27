import Glibc

/// Owns one iconv conversion from a named encoding to UTF-8 (`iconv_open`), closed in
/// `deinit`; used by one thread.
final class IconvDecoder {
  private let descriptor: iconv_t

  /// Opens a conversion, or `nil` when iconv does not know the encoding.
  ///
  /// The corresponding C function is `iconv_open`.
  ///
  /// - Parameter encoding: An encoding name iconv knows (`CP932`, `KOI8-R`).
  init?(from encoding: String) {
    guard let descriptor = iconv_open("UTF-8", encoding),
      Int(bitPattern: descriptor) != -1
    else { return nil }
    self.descriptor = descriptor
  }

  deinit { iconv_close(descriptor) }

  /// Bytes in the encoding as UTF-8, or `nil` when they are not valid in it.
  ///
  /// The corresponding C function is `iconv`.
  ///
  /// - Parameter bytes: The text in the encoding.
  /// - Returns: The same text in UTF-8.
  func utf8(_ bytes: [UInt8]) -> [UInt8]? {
    // Reset the shift state a stateful encoding left from the last name.
    iconv(descriptor, nil, nil, nil, nil)
    var input = bytes.map { CChar(bitPattern: $0) }
    // UTF-8 takes at most 4 bytes a character and no encoding takes fewer than 1.
    var output = [CChar](repeating: 0, count: bytes.count * 4 + 4)
    let written: Int? = input.withUnsafeMutableBufferPointer { inBuffer in
      output.withUnsafeMutableBufferPointer { outBuffer in
        var inPointer = inBuffer.baseAddress
        var inLeft = inBuffer.count
        var outPointer = outBuffer.baseAddress
        var outLeft = outBuffer.count
        let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
        guard result != -1, inLeft == 0,
          iconv(descriptor, nil, nil, &outPointer, &outLeft) != -1
        else { return nil }
        return outBuffer.count - outLeft
      }
    }
    guard let written else { return nil }
    return output.prefix(written).map { UInt8(bitPattern: $0) }
  }
}
