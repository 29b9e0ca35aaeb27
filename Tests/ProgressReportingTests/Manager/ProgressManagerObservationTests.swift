import FolioTestSupport
import Observation
import Testing

@testable import ProgressReporting

/// `ProgressManager` is `Observable`, as Foundation's is
/// (https://developer.apple.com/documentation/observation/withobservationtracking(_:onchange:)),
/// and ends its share once: what a caller watching a tree of managers sees.
@Suite struct ProgressManagerObservationTests {
  @Test func aGrandchildsProgressIsAChangeOfTheRootsFraction() {
    let root = ProgressManager(totalCount: 2)
    let child = root.subprogress(assigningCount: 2).start(totalCount: 2)
    let grandchild = child.subprogress(assigningCount: 1).start(totalCount: 4)
    let changes = ChangeCounter()
    withObservationTracking {
      _ = root.fractionCompleted
    } onChange: {
      changes.fire()
    }
    grandchild.complete(count: 1)
    #expect(changes.value == 1)
    #expect(abs(root.fractionCompleted - 0.125) < 1e-9)
  }

  @Test func eachCountIsTrackedOnTheManagerItBelongsTo() {
    let manager = ProgressManager(totalCount: nil)
    let totals = ChangeCounter()
    let completions = ChangeCounter()
    withObservationTracking {
      _ = manager.totalCount
      _ = manager.isIndeterminate
    } onChange: {
      totals.fire()
    }
    withObservationTracking {
      _ = manager.isFinished
    } onChange: {
      completions.fire()
    }
    manager.setCounts { _, total in total = 2 }
    #expect(totals.value == 1)
    #expect(completions.value == 1)
    withObservationTracking {
      _ = manager.completedCount
    } onChange: {
      completions.fire()
    }
    manager.complete(count: 2)
    #expect(completions.value == 2)
    #expect(manager.isFinished)
  }

  @Test func endingAManagerHandsItsShareBackOnceAndItsChildrenFirst() {
    let root = ProgressManager(totalCount: 4)
    let child = root.subprogress(assigningCount: 2).start(totalCount: 10)
    let grandchild = child.subprogress(assigningCount: 5).start(totalCount: 1)
    grandchild.completedByteCount += 100
    child.end()
    child.end()
    #expect(grandchild.hasEnded)
    #expect(root.completedCount == 2)
    #expect(root.summary(of: \.completedByteCount) == 100)
    grandchild.complete(count: 1)
    #expect(root.completedCount == 2)
  }
}
