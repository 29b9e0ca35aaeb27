import FolioSystem
import FolioTestSupport
import Foundation
import Testing

/// The one check every writer makes of its output before any work.
@Suite struct ReplacePolicyTests {
  @Test func refuseFailsOnAnythingAtTheOutputEvenADanglingLink() async throws {
    try await withTemporaryDirectory("replace-policy") { folder in
      let file = folder.appendingPathComponent("file")
      try Data("old".utf8).write(to: file)
      let link = folder.appendingPathComponent("link")
      try FileManager.default.createSymbolicLink(
        atPath: link.path, withDestinationPath: "nowhere")
      for path in [file.path, link.path, folder.path] {
        #expect(throws: ReplacePolicy.Refusal(reason: .exists, path: path)) {
          try ReplacePolicy.refuse.check(outputAt: path, updatable: true)
        }
      }
      #expect(try Data(contentsOf: file) == Data("old".utf8))
    }
  }

  @Test(arguments: ReplacePolicy.allCases)
  func aMissingOutputPassesEveryPolicy(_ policy: ReplacePolicy)
    async throws
  {
    try await withTemporaryDirectory("replace-policy") { folder in
      let missing = folder.appendingPathComponent("missing").path
      let exists = try policy.check(outputAt: missing, updatable: true)
      #expect(!exists)
    }
  }

  @Test(arguments: [ReplacePolicy.replace, .update])
  func replacingOrUpdatingReportsWhatIsThere(_ policy: ReplacePolicy) async throws {
    try await withTemporaryDirectory("replace-policy") { folder in
      let exists = try policy.check(outputAt: folder.path, updatable: true)
      #expect(exists)
      #expect(policy.replacesExisting)
    }
    #expect(!ReplacePolicy.refuse.replacesExisting)
  }

  @Test func aWriterThatWritesWholeRefusesUpdateWhetherOrNotTheOutputExists() async throws {
    try await withTemporaryDirectory("replace-policy") { folder in
      for path in [folder.path, folder.appendingPathComponent("missing").path] {
        let error = #expect(throws: ReplacePolicy.Refusal.self) {
          try ReplacePolicy.update.check(outputAt: path, updatable: false)
        }
        #expect(error?.reason == .updateUnsupported)
        #expect(error?.reason.rawValue == "update-unsupported")
      }
      let replaced = try ReplacePolicy.replace.check(outputAt: folder.path, updatable: false)
      #expect(replaced)
    }
  }

  @Test func theRefusalNamesTheOutputWithoutNamingAnOption() {
    let refusal = ReplacePolicy.Refusal(reason: .exists, path: "/tmp/out.zip")
    #expect(refusal.message == "'/tmp/out.zip' already exists")
    #expect(refusal.reason.rawValue == "output-exists")
    let update = ReplacePolicy.Refusal(reason: .updateUnsupported, path: "/tmp/out.zip")
    #expect(update.message.contains("'/tmp/out.zip'"))
    #expect(!update.message.contains("--"))
  }
}
