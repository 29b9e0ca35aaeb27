import FolioSystem
import Glibc
import Testing

/// Day counts and dates agree with the C library's UTC calendar, before 1970 too.
@Suite struct CivilCalendarTests {
  @Test(arguments: [-719_528, -141_428, -1, 0, 59, 10_956, 11_016, 19_782, 50_000, 2_932_896])
  func aDayCountsDateIsTheCLibrarysAndCountsBackToTheSameDay(days: Int) {
    var seconds = time_t(days) * 86_400
    var parts = tm()
    #expect(gmtime_r(&seconds, &parts) != nil)
    let date = CivilCalendar.date(days: days)
    #expect(date.year == Int(parts.tm_year) + 1900)
    #expect(date.month == Int(parts.tm_mon) + 1)
    #expect(date.day == Int(parts.tm_mday))
    #expect(CivilCalendar.days(year: date.year, month: date.month, day: date.day) == days)
  }

  @Test func everyDayOfFourHundredYearsRoundTrips() {
    for days in -73_048..<73_049 {
      let date = CivilCalendar.date(days: days)
      #expect(CivilCalendar.days(year: date.year, month: date.month, day: date.day) == days)
    }
  }
}
