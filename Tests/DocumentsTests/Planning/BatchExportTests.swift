import Documents
import FolioSystem
import FolioTestSupport
import Foundation
import Testing
import UniformTypes

@Suite struct BatchExportTests {
  /// Packing and expanding take their threads from the same count, so `--jobs` and
  /// `FOLIO_JOBS` unset mean the processors of the process's CPU affinity for all three.
  @Test func runsAsManyExportsAtOnceAsPackingAndExpandingUseThreads() {
    #expect(BatchExport().concurrency == ProcessorCount.jobs(nil))
    #expect(BatchExport().concurrency == ProcessorCount.available)
    #expect(BatchExport(concurrency: 2).concurrency == 2)
    #expect(BatchExport(concurrency: 0).concurrency == 1)
  }

  @Test func eachTaskRefusesAnExistingOutputUnlessItsPolicyReplacesIt() async throws {
    try await withTemporaryDirectory("batch-replace") { folder in
      let input = folder.appendingPathComponent("a.txt")
      try Data("hello\n".utf8).write(to: input)
      let plan = try ExportPlan.make(
        for: ExportItem(url: input, type: .utf8PlainText, displayName: "a.txt"),
        to: .utf16PlainText, exporters: .builtIn)
      let kept = folder.appendingPathComponent("kept.txt")
      let replaced = folder.appendingPathComponent("replaced.txt")
      for output in [kept, replaced] { try Data("old".utf8).write(to: output) }
      let results = await BatchExport(concurrency: 2).run([
        BatchExport.Task(plan: plan, output: kept),
        BatchExport.Task(plan: plan, output: replaced, replacePolicy: .replace),
      ])
      #expect(throws: ExportError.self) { try results[0].get() }
      if case .failure(let error as ExportError) = results[0] {
        #expect(error.code == .outputExists)
      }
      #expect(try Data(contentsOf: kept) == Data("old".utf8))
      _ = try results[1].get()
      #expect(try Data(contentsOf: replaced) != Data("old".utf8))
    }
  }
}
