import Foundation
import Testing

@testable import ProgressReporting

/// A program's own property, declared the way SF-0023 shows.
extension ProgressManager.Properties {
  var pagesRendered: PagesRendered.Type { PagesRendered.self }
  enum PagesRendered: ProgressManager.Property {
    static var key: String { "FolioTests.PagesRendered" }
    static var defaultValue: Int { 0 }
    static var defaultSummary: Int { 0 }
    static func reduce(into summary: inout Int, value: Int) { summary += value }
    static func merge(_ summary1: Int, _ summary2: Int) -> Int { summary1 + summary2 }
    static func finalSummary(_ parentSummary: Int, _ selfSummary: Int) -> Int {
      parentSummary + selfSummary
    }
  }
}

@Suite struct ProgressManagerTests {
  @Test func completedUnitsGiveTheFraction() {
    let manager = ProgressManager(totalCount: 4)
    manager.complete(count: 1)
    #expect(manager.fractionCompleted == 0.25)
    #expect(!manager.isFinished)
    manager.complete(count: 3)
    #expect(manager.fractionCompleted == 1)
    #expect(manager.isFinished)
  }

  @Test func indeterminateManagerHasNoTotalUntilSet() {
    let manager = ProgressManager(totalCount: nil)
    #expect(manager.isIndeterminate)
    #expect(manager.totalCount == nil)
    #expect(manager.fractionCompleted == 0)
    manager.setCounts { completed, total in
      total = 10
      completed = 5
    }
    #expect(!manager.isIndeterminate)
    #expect(manager.fractionCompleted == 0.5)
  }

  @Test func childShareCountsPartiallyThenWholly() {
    let root = ProgressManager(totalCount: 10)
    var child: ProgressManager? = root.subprogress(assigningCount: 6).start(totalCount: 3)
    child?.complete(count: 1)
    #expect(abs(root.fractionCompleted - 0.2) < 1e-9)
    #expect(root.completedCount == 0)
    child = nil
    #expect(abs(root.fractionCompleted - 0.6) < 1e-9)
    #expect(root.completedCount == 6)
  }

  @Test func droppedSubprogressCompletesItsShare() {
    let root = ProgressManager(totalCount: 2)
    do { _ = root.subprogress(assigningCount: 1) }
    #expect(root.fractionCompleted == 0.5)
  }

  @Test func nestedManagersShareOneFileAndByteCount() {
    let root = ProgressManager(totalCount: 1)
    let child = root.subprogress(assigningCount: 1).start(totalCount: 100)
    let grandchild = child.subprogress(assigningCount: 50).start(totalCount: 2)
    grandchild.totalFileCount += 2
    grandchild.totalByteCount += 300
    grandchild.startFile("a", size: 100)
    grandchild.completedByteCount += 100
    grandchild.completeFile("a")
    let snapshot = root.reporter.snapshot
    #expect(snapshot.completedFileCount == 1)
    #expect(snapshot.totalFileCount == 2)
    #expect(snapshot.completedByteCount == 100)
    #expect(snapshot.totalByteCount == 300)
    // The properties themselves: each manager's own, summed over a subtree.
    #expect(grandchild.completedByteCount == 100)
    #expect(root.completedByteCount == 0)
    #expect(root.summary(of: \.completedByteCount) == 100)
    #expect(child.summary(of: \.totalFileCount) == 2)
    #expect(root.summary(of: \.currentFile) == ["a"])
  }

  /// Files no observer follows are counted together, leaving what announcing each would.
  @Test func filesCompletedTogetherLeaveTheCountAndTheLastFile() {
    let root = ProgressManager(totalCount: 1)
    let child = root.subprogress(assigningCount: 1).start(totalCount: 2)
    #expect(!child.followsFiles)
    child.completeFiles(0, lastPath: "none")
    #expect(child.currentFile == nil)
    child.completeFiles(3, lastPath: "c")
    #expect(child.completedFileCount == 3)
    #expect(child.currentFile == "c")
    #expect(root.reporter.snapshot.completedFileCount == 3)
    let events = root.reporter.events(interval: .zero)
    #expect(child.followsFiles)
    _ = events
  }

  @Test func anEndedChildLeavesItsCountsWithItsParent() {
    let root = ProgressManager(totalCount: 2)
    do {
      let child = root.subprogress(assigningCount: 1).start(totalCount: 1)
      child.completedFileCount = 3
      child.completedByteCount = 4096
      child.estimatedTimeRemaining = .seconds(9)
      child.pagesRendered = 7
    }
    #expect(root.summary(of: \.completedFileCount) == 3)
    #expect(root.summary(of: \.completedByteCount) == 4096)
    #expect(root.summary(of: \.pagesRendered) == 7)
    // A time estimate says nothing once its work ended.
    #expect(root.summary(of: \.estimatedTimeRemaining) == .zero)
    #expect(root.reporter.snapshot.completedByteCount == 4096)
  }

  @Test func customPropertiesReadAndWriteAsMembers() {
    let manager = ProgressManager(totalCount: 1)
    #expect(manager.pagesRendered == 0)
    manager.pagesRendered += 2
    manager.throughput = 512
    #expect(manager.pagesRendered == 2)
    #expect(manager.reporter.pagesRendered == 2)
    #expect(manager.reporter.summary(of: \.throughput) == [512])
  }

  @Test func theReporterIsAReadOnlyViewOfItsManager() {
    let manager = ProgressManager(totalCount: 4)
    let reporter = manager.reporter
    manager.complete(count: 2)
    manager.totalByteCount = 10
    #expect(reporter.completedCount == 2)
    #expect(reporter.totalCount == 4)
    #expect(reporter.fractionCompleted == 0.5)
    #expect(reporter.totalByteCount == 10)
    #expect(!reporter.isFinished)
    #expect(reporter == manager.reporter)
  }

  @Test func totalsStayUnknownUntilSet() {
    let root = ProgressManager(totalCount: 1)
    root.completedByteCount += 10
    #expect(root.reporter.snapshot.totalByteCount == nil)
    #expect(root.reporter.snapshot.totalFileCount == nil)
    #expect(root.reporter.snapshot.completedByteCount == 10)
    root.totalByteCount = 0
    #expect(root.reporter.snapshot.totalByteCount == 0)
    #expect(root.reporter.snapshot.totalFileCount == nil)
  }

  @Test func cancellingAParentCancelsItsChildren() throws {
    let root = ProgressManager(totalCount: 1)
    let child = root.subprogress(assigningCount: 1).start(totalCount: 1)
    #expect(!child.isCancelled)
    try child.checkCancellation()
    root.cancel()
    #expect(child.isCancelled)
    #expect(throws: CancellationError.self) { try child.checkCancellation() }
  }

  @Test func cancellingAChildLeavesItsParentRunning() {
    let root = ProgressManager(totalCount: 2)
    let child = root.subprogress(assigningCount: 1).start(totalCount: 1)
    child.cancel()
    #expect(!root.isCancelled)
  }

  @Test func observerSeesFileEventsInOrderThenTheFinalSnapshot() async {
    let root = ProgressManager(totalCount: 1)
    let events = root.reporter.events(interval: .zero)
    do {
      let worker = root.subprogress(assigningCount: 1).start(totalCount: 2)
      worker.totalFileCount += 2
      worker.totalByteCount += 20
      for name in ["one", "two"] {
        worker.startFile(name, size: 10)
        worker.completedByteCount += 10
        worker.completeFile(name)
        worker.complete(count: 1)
      }
    }
    var files: [String] = []
    var finals: [ProgressSnapshot] = []
    var lastBytes: UInt64 = 0
    for await event in events {
      switch event {
      case .fileStarted(let path, _): files.append("+" + path)
      case .fileFinished(let path): files.append("-" + path)
      case .update(let snapshot):
        #expect(snapshot.completedByteCount >= lastBytes)
        lastBytes = snapshot.completedByteCount
      case .finished(let snapshot): finals.append(snapshot)
      }
    }
    #expect(files == ["+one", "-one", "+two", "-two"])
    #expect(finals.count == 1)
    #expect(finals.first?.completedFileCount == 2)
    #expect(finals.first?.completedByteCount == 20)
    #expect(finals.first?.fractionCompleted == 1)
    #expect(finals.first?.isFinished == true)
  }

  @Test func observersEndWhenTheRootCompletesWithoutAnyFinishCall() async {
    let root = ProgressManager(totalCount: 2)
    let events = root.reporter.events(interval: .zero)
    let watcher = Task { () -> Int in
      var count = 0
      for await _ in events { count += 1 }
      return count
    }
    root.complete(count: 1)
    // The started child goes away at the end of the statement: its share completes the root.
    root.subprogress(assigningCount: 1).start(totalCount: 5).complete(count: 5)
    #expect(await watcher.value >= 1)
    #expect(root.isFinished)
  }

  @Test func observersEndWhenTheRootGoesAwayUnfinished() async {
    var root: ProgressManager? = ProgressManager(totalCount: 10)
    let events = root!.reporter.events(interval: .zero)
    root?.complete(count: 3)
    root = nil
    var final: ProgressSnapshot?
    for await event in events { if case .finished(let snapshot) = event { final = snapshot } }
    #expect(final?.isFinished == true)
    #expect(final.map { abs($0.fractionCompleted - 0.3) < 1e-9 } == true)
  }

  @Test func observerJoiningAfterTheEndGetsTheFinalSnapshot() async {
    let root = ProgressManager(totalCount: 1)
    root.complete(count: 1)
    var received: [ProgressEvent] = []
    for await event in root.reporter.events() { received.append(event) }
    #expect(received.count == 1)
    if case .finished(let snapshot) = received.first {
      #expect(snapshot.fractionCompleted == 1)
    } else {
      Issue.record("expected a finished event, got \(received)")
    }
  }

  @Test func estimateFollowsTheRemainingBytes() async throws {
    let root = ProgressManager(totalCount: 1)
    root.totalFileCount = 1
    root.totalByteCount = 1000
    root.completedByteCount += 500
    try await Task.sleep(for: .milliseconds(20))
    let snapshot = root.reporter.snapshot
    #expect(snapshot.throughput > 0)
    #expect(snapshot.estimatedTimeRemaining != nil)
    #expect(snapshot.estimatedTimeRemaining.map { $0 > .zero } == true)
  }

  @Test func concurrentWorkersNeverLoseCounts() async {
    let root = ProgressManager(totalCount: 4)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        let worker = root.subprogress(assigningCount: 1).start(totalCount: 1000)
        group.addTask {
          for _ in 0..<1000 {
            worker.completedByteCount += 64
            worker.complete(count: 1)
          }
        }
      }
    }
    #expect(root.reporter.snapshot.completedByteCount == 4 * 1000 * 64)
    #expect(root.summary(of: \.completedByteCount) == 4 * 1000 * 64)
    #expect(root.fractionCompleted == 1)
  }

  @Test func byteUpdatesAreThrottledToTheInterval() async {
    var quiet: ProgressManager? = ProgressManager(totalCount: 1)
    let slow = quiet!.reporter.events(interval: .seconds(3600))
    for _ in 0..<1000 { quiet?.completedByteCount += 64 << 10 }
    quiet = nil
    var updates = 0
    for await event in slow { if case .update = event { updates += 1 } }
    #expect(updates == 0)

    var busy: ProgressManager? = ProgressManager(totalCount: 1)
    let fast = busy!.reporter.events(interval: .zero)
    for _ in 0..<10 { busy?.completedByteCount += 1 }
    busy = nil
    updates = 0
    for await event in fast { if case .update = event { updates += 1 } }
    #expect(updates >= 1)
    #expect(updates <= 10)
  }
}
