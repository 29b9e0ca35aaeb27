import Archives
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCommands

@Suite struct ListingLineTests {
  let line = ListingLine(now: Date(timeIntervalSince1970: 1_700_000_000))  // 2023-11-14

  @Test func recentTimesShowTheClockOlderOnesTheYear() {
    #expect(line.date(1_699_999_000) == "Nov 14 21:56")
    #expect(line.date(0) == "Jan  1  1970")
    #expect(line.date(253_402_300_799) == "Dec 31  9999")
  }

  @Test func yearsPastFourDigitsAreShownWhole() {
    #expect(line.date(109_626_219_000) == "Dec  1  5443")
    #expect(line.date(1_000_000_000_000) == "Sep 27 33658")
  }

  @Test func timesNoCalendarCanShowAreRawSeconds() {
    #expect(line.date(Int64.max) == "@\(Int64.max)")
    #expect(line.date(-(1 << 62)) == "@\(-(1 << 62))")
  }

  @Test func listShowsAHugeModificationTimeFromARealArchive() async throws {
    try await withTemporaryDirectory("list-mtime") { folder in
      let script = """
        import io, sys, tarfile
        with tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT) as archive:
            for name, mtime in (("far.txt", 2**62), ("year.txt", 109626219000)):
                info = tarfile.TarInfo(name)
                info.size = 2
                info.mtime = mtime
                archive.addfile(info, io.BytesIO(b"hi"))
        """
      let made = try runProcess("python3", ["-c", script, "t.tar"], in: folder)
      #expect(made.status == 0, "\(made.errorText)")
      let (status, output, errors) = await runFolio(["list", "t.tar"], in: folder)
      #expect(status == 0, "\(errors)")
      let lines = output.split(separator: "\n").map(String.init)
      #expect(lines.count == 2)
      #expect(lines.first?.hasSuffix(" @\(1 << 62) far.txt") == true, "\(lines)")
      #expect(lines.last?.hasSuffix(" Dec  1  5443 year.txt") == true, "\(lines)")
    }
  }
}
