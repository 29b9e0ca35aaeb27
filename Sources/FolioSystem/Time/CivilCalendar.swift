/// Days counted from 1970-01-01 and the dates they fall on, in the proleptic Gregorian
/// calendar, by Howard Hinnant's algorithms: arithmetic in 400-year eras, with no time zone
/// and no C library call, so a hot path (a zip header's date) and a parser (a property
/// list's date) turn days into dates the same way.
package enum CivilCalendar {
  /// The day count of a date.
  ///
  /// - Parameters:
  ///   - year: The year (astronomical: 0 is 1 BC).
  ///   - month: The month, 1 to 12.
  ///   - day: The day of the month, from 1.
  /// - Returns: Days since 1970-01-01 (negative before it).
  package static func days(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date a day count falls on.
  ///
  /// - Parameter days: Days since 1970-01-01 (negative before it).
  /// - Returns: The year, the month (1 to 12) and the day of the month.
  package static func date(days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
