// Numbers spelled with a fixed number of digits, as C's `%04X` and `%02d` spell them:
// folio's modules use FoundationEssentials, which has no `String(format:)` (that lives in
// corelibs Foundation, and one use of it links all of Foundation into the binary).

extension BinaryInteger {
  /// The value's digits in `radix`, with zeros before them up to `count` digits.
  ///
  /// A negative value gets a minus sign before the zeros (`-7` in 3 digits is `-007`);
  /// `printf` would count the sign in its width and print hexadecimal as two's complement.
  ///
  /// - Parameters:
  ///   - count: The fewest digits to write; more are written when the value needs them.
  ///   - radix: The base, 2 through 36; 10 unless given.
  ///   - uppercase: Whether digits above 9 are capital letters (`%X`) or small ones (`%x`).
  /// - Returns: The spelled number.
  package func digits(_ count: Int, radix: Int = 10, uppercase: Bool = true) -> String {
    let magnitude = String(self.magnitude, radix: radix, uppercase: uppercase)
    let padding = String(repeating: "0", count: Swift.max(0, count - magnitude.utf8.count))
    return (self < 0 ? "-" : "") + padding + magnitude
  }
}
