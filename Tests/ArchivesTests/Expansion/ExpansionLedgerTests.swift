import Testing

@testable import Archives

/// The ledger checks an entry's folders once for a run of entries in the same folder; what
/// comes after such a run is still judged whole.
@Suite struct ExpansionLedgerTests {
  private func code(
    of names: [(String, ArchiveEntryInfo.Kind, String?)], policy: ExpansionPolicy = .init()
  ) -> PackagingError.Code? {
    var ledger = ExpansionLedger(policy: policy)
    do {
      for (name, kind, target) in names {
        _ = try ledger.admit(EntryName(name), kind: kind, linkTarget: target.map(EntryName.init))
      }
      return nil
    } catch let error as PackagingError {
      return error.code
    } catch {
      return nil
    }
  }

  @Test func aLedgerAfterACheckThatJudgedCollisionsDoesNotJudgeThemAgain() throws {
    let names = ["Notes/A.txt", "Notes/a.txt"].map { EntryName($0) }
    var checking = ExpansionLedger(policy: ExpansionPolicy())
    _ = try checking.admit(names[0], kind: .file)
    #expect(throws: PackagingError.self) { _ = try checking.admit(names[1], kind: .file) }
    var after = ExpansionLedger(policy: ExpansionPolicy(), collisionsChecked: true)
    for name in names { _ = try after.admit(name, kind: .file) }
    #expect(after.pathCount == 3)
    // Everything else is still judged: the same name twice is still a duplicate.
    #expect(throws: PackagingError.self) { _ = try after.admit(names[0], kind: .file) }
  }

  @Test func aRunOfFilesInOneFolderIsAdmitted() {
    let names = (0..<50).map { ("Doc/pages/\($0).txt", ArchiveEntryInfo.Kind.file, String?.none) }
    #expect(code(of: names) == nil)
  }

  @Test func aFileInPlaceOfTheRunsFolderConflicts() {
    #expect(
      code(of: [("d/a", .file, nil), ("d/b", .file, nil), ("d", .file, nil)]) == .pathConflict)
  }

  @Test func aFolderBesideTheRunThatIsAFileIsStillRefused() {
    #expect(
      code(of: [("d/a", .file, nil), ("e", .file, nil), ("d/b", .file, nil), ("e/c", .file, nil)])
        == .pathConflict)
  }

  @Test func writingThroughALinkAfterARunIsStillRefused() {
    #expect(
      code(of: [
        ("d/a", .file, nil), ("d/b", .file, nil), ("l", .symbolicLink, "d"), ("l/c", .file, nil),
      ]) == .writeThroughSymlink)
  }

  @Test func aFolderSpelledInAnotherCaseAfterARunStillCollides() {
    #expect(
      code(of: [("Dir/a", .file, nil), ("Dir/b", .file, nil), ("dir/c", .file, nil)])
        == .nameCollision)
  }
}
