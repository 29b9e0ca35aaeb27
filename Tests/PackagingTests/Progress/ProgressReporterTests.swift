import Foundation
import Testing

@testable import Packaging

@Suite struct ProgressReporterTests {
  @Test func completedUnitsGiveTheFraction() {
    let reporter = ProgressReporter(totalCount: 4)
    reporter.complete(count: 1)
    #expect(reporter.fractionCompleted == 0.25)
    reporter.complete(count: 3)
    #expect(reporter.fractionCompleted == 1)
  }

  @Test func childShareCountsPartiallyThenWholly() {
    let root = ProgressReporter(totalCount: 10)
    var child: ProgressReporter? = root.subprogress(assigningCount: 6).start(totalCount: 3)
    child?.complete(count: 1)
    #expect(abs(root.fractionCompleted - 0.2) < 1e-9)
    child = nil
    #expect(abs(root.fractionCompleted - 0.6) < 1e-9)
  }

  @Test func droppedSubprogressCompletesItsShare() {
    let root = ProgressReporter(totalCount: 2)
    do { _ = root.subprogress(assigningCount: 1) }
    #expect(root.fractionCompleted == 0.5)
  }

  @Test func nestedChildrenShareOneFileAndByteCount() {
    let root = ProgressReporter(totalCount: 1)
    let child = root.subprogress(assigningCount: 1).start(totalCount: 100)
    let grandchild = child.subprogress(assigningCount: 50).start(totalCount: 2)
    grandchild.addTotals(files: 2, bytes: 300)
    grandchild.startFile("a", size: 100)
    grandchild.complete(bytes: 100)
    grandchild.completeFile("a")
    let snapshot = root.snapshot
    #expect(snapshot.completedFiles == 1)
    #expect(snapshot.totalFiles == 2)
    #expect(snapshot.completedBytes == 100)
    #expect(snapshot.totalBytes == 300)
  }

  @Test func totalsStayUnknownUntilAdded() {
    let root = ProgressReporter(totalCount: 1)
    root.complete(bytes: 10)
    #expect(root.snapshot.totalBytes == nil)
    #expect(root.snapshot.totalFiles == nil)
    #expect(root.snapshot.completedBytes == 10)
  }

  @Test func cancellingAParentCancelsItsChildren() throws {
    let root = ProgressReporter(totalCount: 1)
    let child = root.subprogress(assigningCount: 1).start(totalCount: 1)
    #expect(!child.isCancelled)
    try child.checkCancellation()
    root.cancel()
    #expect(child.isCancelled)
    #expect(throws: CancellationError.self) { try child.checkCancellation() }
  }

  @Test func cancellingAChildLeavesItsParentRunning() {
    let root = ProgressReporter(totalCount: 2)
    let child = root.subprogress(assigningCount: 1).start(totalCount: 1)
    child.cancel()
    #expect(!root.isCancelled)
  }

  @Test func observerSeesFileEventsInOrderThenTheFinalSnapshot() async {
    let root = ProgressReporter(totalCount: 1)
    let events = root.events(interval: .zero)
    let worker = root.subprogress(assigningCount: 1).start(totalCount: 2)
    worker.addTotals(files: 2, bytes: 20)
    for name in ["one", "two"] {
      worker.startFile(name, size: 10)
      worker.complete(bytes: 10)
      worker.completeFile(name)
      worker.complete(count: 1)
    }
    root.finish()
    var files: [String] = []
    var finals: [ProgressSnapshot] = []
    var lastBytes: Int64 = 0
    for await event in events {
      switch event {
      case .fileStarted(let path, _): files.append("+" + path)
      case .fileFinished(let path): files.append("-" + path)
      case .update(let snapshot):
        #expect(snapshot.completedBytes >= lastBytes)
        lastBytes = snapshot.completedBytes
      case .finished(let snapshot): finals.append(snapshot)
      }
    }
    #expect(files == ["+one", "-one", "+two", "-two"])
    #expect(finals.count == 1)
    #expect(finals.first?.completedFiles == 2)
    #expect(finals.first?.completedBytes == 20)
    #expect(finals.first?.fractionCompleted == 1)
    #expect(finals.first?.isFinished == true)
  }

  @Test func observerJoiningAfterTheEndGetsTheFinalSnapshot() async {
    let root = ProgressReporter(totalCount: 1)
    root.complete(count: 1)
    root.finish()
    var received: [ProgressEvent] = []
    for await event in root.events() { received.append(event) }
    #expect(received.count == 1)
    if case .finished(let snapshot) = received.first {
      #expect(snapshot.fractionCompleted == 1)
    } else {
      Issue.record("expected a finished event, got \(received)")
    }
  }

  @Test func estimateFollowsTheRemainingBytes() async throws {
    let root = ProgressReporter(totalCount: 1)
    root.addTotals(files: 1, bytes: 1000)
    root.complete(bytes: 500)
    try await Task.sleep(for: .milliseconds(20))
    let snapshot = root.snapshot
    #expect(snapshot.bytesPerSecond > 0)
    #expect(snapshot.estimatedTimeRemaining != nil)
    #expect(snapshot.estimatedTimeRemaining.map { $0 > .zero } == true)
  }

  @Test func concurrentWorkersNeverLoseCounts() async {
    let root = ProgressReporter(totalCount: 4)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        let worker = root.subprogress(assigningCount: 1).start(totalCount: 1000)
        group.addTask {
          for _ in 0..<1000 {
            worker.complete(bytes: 64)
            worker.complete(count: 1)
          }
        }
      }
    }
    #expect(root.snapshot.completedBytes == 4 * 1000 * 64)
    #expect(root.fractionCompleted == 1)
  }

  @Test func byteUpdatesAreThrottledToTheInterval() async {
    let quiet = ProgressReporter(totalCount: 1)
    let slow = quiet.events(interval: .seconds(3600))
    for _ in 0..<1000 { quiet.complete(bytes: 64 << 10) }
    quiet.finish()
    var updates = 0
    for await event in slow { if case .update = event { updates += 1 } }
    #expect(updates == 0)

    let busy = ProgressReporter(totalCount: 1)
    let fast = busy.events(interval: .zero)
    for _ in 0..<10 { busy.complete(bytes: 1) }
    busy.finish()
    updates = 0
    for await event in fast { if case .update = event { updates += 1 } }
    #expect(updates >= 1)
    #expect(updates <= 10)
  }
}
