// Decimal fractions for people to read (progress, sizes, seconds), as C's `%.1f` spells them,
// without `String(format:)` (see BinaryInteger+Digits.swift for why).

extension Double {
  /// The value with exactly `count` digits after the decimal point, rounded to the nearest
  /// (halves away from zero).
  ///
  /// `printf` rounds the binary value exactly, so on a tie such as 0.25 to one digit the
  /// two may differ in the last digit, and it writes `-0` where this writes `0`; these
  /// numbers are for reading, not for parsing.
  /// Infinity and NaN are spelled as Swift spells them.
  ///
  /// - Parameter count: Digits after the point, 0 through 9; none writes no point.
  /// - Returns: The spelled number, such as `12.5` or `-0.125`.
  package func fractionDigits(_ count: Int) -> String {
    precondition((0...9).contains(count), "between 0 and 9 fraction digits")
    guard isFinite else { return description }
    var scale = 1.0
    for _ in 0..<count { scale *= 10 }
    let scaled = (Swift.abs(self) * scale).rounded(.toNearestOrAwayFromZero)
    // Beyond 2^63 a Double has no fraction digits left to show.
    guard scaled < 9.2e18 else { return (self < 0 ? "-" : "") + String(Swift.abs(self).rounded()) }
    let units = UInt64(scaled)
    let whole = units / UInt64(scale)
    let sign = self < 0 && units > 0 ? "-" : ""
    guard count > 0 else { return sign + String(whole) }
    return sign + String(whole) + "." + (units % UInt64(scale)).digits(count)
  }
}
