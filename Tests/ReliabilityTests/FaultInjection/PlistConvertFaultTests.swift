import FolioTestSupport
import Foundation
import Testing

/// `folio plist convert` under failing system calls: it writes through FolioSystem's one
/// atomic writer, replacing an existing file in place (no `-o`), so every failure must
/// leave that file as it was and no temporary beside it.
@Suite("Faults while converting a property list", .serialized)
struct PlistConvertFaultTests {
  static let scenario = FaultScenario(
    name: "plist convert",
    prepare: { folder in
      let plist = folder.appendingPathComponent("Info.plist")
      try FileManager.default.copyItem(at: ProjectPaths.sampleInfoPlist, to: plist)
      return (["plist", "convert", plist.path, "--to", "binary"], plist)
    },
    verify: { plist in
      let data = try Data(contentsOf: plist)
      guard data.starts(with: Array("bplist00".utf8)) else {
        return ["\(plist.lastPathComponent) is not a binary property list"]
      }
      let converted = try PropertyListSerialization.propertyList(from: data, format: nil)
      let original = try PropertyListSerialization.propertyList(
        from: Data(contentsOf: ProjectPaths.sampleInfoPlist), format: nil)
      return (converted as? NSDictionary) == (original as? NSDictionary)
        ? [] : ["\(plist.lastPathComponent) does not hold the sample's values"]
    })

  @Test func everyFaultLeavesTheFileAsItWasAndRetriesInterruptions() throws {
    let tally = try runFaultMatrix(Self.scenario)
    print(
      "reliability: plist convert: \(tally.injected) faults (\(tally.afterCommit) absorbed), \(tally.retried) retried"
    )
    #expect(tally.injected > 0)
  }
}
