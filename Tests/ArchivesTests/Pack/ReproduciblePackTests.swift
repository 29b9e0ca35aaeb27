import FolioTestSupport
import Foundation
import Testing

/// `folio pack --reproducible` writes the same bytes whatever the number of jobs and
/// whatever the time zone, in every format it writes (the built binary, as users run it).
@Suite struct ReproduciblePackTests {
  @Test(arguments: ["zip", "tar", "tar.gz", "tar.zst", "tar.xz", "tar.bz2"])
  func theSameBytesAcrossJobsAndTimeZones(_ format: String) throws {
    let folder = try makeTemporaryDirectory("reproducible-\(format)")
    defer { removeTree(folder) }
    let tree = try ZipWriterTests.makeTree(in: folder)
    let runs = [
      (1, "UTC"), (2, "UTC"), (2, "America/Los_Angeles"), (1, "Asia/Kathmandu"),
      (3, "Pacific/Chatham"),
    ]
    var archives: [Data] = []
    for (jobs, zone) in runs {
      let archive = folder.appendingPathComponent("\(jobs)-\(archives.count).\(format)")
      let result = try FolioBinary.run(
        ["pack", tree.path, "-o", archive.path, "--reproducible", "--quiet", "--jobs", "\(jobs)"],
        environment: ["TZ": zone])
      #expect(result.status == 0, "\(result.errorText)")
      archives.append(try Data(contentsOf: archive))
    }
    #expect(Set(archives).count == 1, "\(format): \(archives.map(\.count))")
  }
}
