import ProgressReporting
import Testing

// Foundation's `assign(count:to:)` "adds a ProgressReporter as a child, with its progress
// representing a portion of self's progress":
// https://developer.apple.com/documentation/foundation/progressmanager/assign(count:to:)-98a77
@Suite struct ProgressManagerAssignmentTests {
  @Test func anAssignedReportersPartialWorkCountsInTheParentsFraction() {
    let overall = ProgressManager(totalCount: 4)
    let download = ProgressManager(totalCount: 10)
    overall.assign(count: 2, to: download.reporter)
    download.complete(count: 5)
    #expect(overall.fractionCompleted == 0.25)
    #expect(overall.completedCount == 0)
  }

  @Test func theAssignedCountCompletesWhenTheReportersWorkFinishes() {
    let overall = ProgressManager(totalCount: 3)
    let download = ProgressManager(totalCount: 10)
    overall.assign(count: 2, to: download.reporter)
    overall.complete(count: 1)
    download.complete(count: 10)
    #expect(overall.completedCount == 3)
    #expect(overall.isFinished)
    #expect(overall.fractionCompleted == 1)
    // Finishing again adds nothing: the share was counted once.
    download.complete(count: 1)
    #expect(overall.completedCount == 3)
  }

  @Test func workFinishedBeforeItWasAssignedCountsAtOnce() {
    let overall = ProgressManager(totalCount: 1)
    let done = ProgressManager(totalCount: 2)
    done.complete(count: 2)
    overall.assign(count: 1, to: done.reporter)
    #expect(overall.isFinished)
  }

  @Test func aChildOfAnotherTreeCanBeAssigned() {
    let other = ProgressManager(totalCount: 1)
    let child = other.subprogress(assigningCount: 1).start(totalCount: 4)
    let overall = ProgressManager(totalCount: 2)
    overall.assign(count: 2, to: child.reporter)
    child.complete(count: 2)
    #expect(overall.fractionCompleted == 0.5)
    child.complete(count: 2)
    #expect(overall.isFinished)
    #expect(other.fractionCompleted == 1)
  }

  @Test func theOperationsObserversEndWhenTheAssignedWorkFinishes() async {
    let overall = ProgressManager(totalCount: 1)
    let work = ProgressManager(totalCount: 1)
    overall.assign(count: 1, to: work.reporter)
    let events = overall.reporter.events()
    work.complete(count: 1)
    var last: ProgressEvent?
    for await event in events { last = event }
    #expect(last != nil)
    #expect(overall.isFinished)
  }

  @Test func workFinishingOnAnotherThreadWhileAssignedCountsExactlyOnce() async {
    // No timing: each round races the finish against the assignment and checks the count.
    for _ in 0..<1_000 {
      let overall = ProgressManager(totalCount: 1)
      let work = ProgressManager(totalCount: 1)
      let finisher = Task.detached { work.complete(count: 1) }
      overall.assign(count: 1, to: work.reporter)
      await finisher.value
      #expect(overall.completedCount == 1)
      #expect(overall.isFinished)
    }
  }
}
