import Dispatch
import Glibc
import Synchronization
import Testing

@testable import FolioSystem

@Suite struct PendingValueTests {
  /// The thread that makes the value, as a number comparable across threads.
  private static func currentThread() -> UInt { UInt(pthread_self()) }

  @Test func aValueIsMadeOnAnotherThreadWhileTheCallerGoesOn() {
    let release = DispatchSemaphore(value: 0)
    let makerThread = Mutex<UInt?>(nil)
    let pending = PendingValue<Int>(makingInBackground: {
      makerThread.withLock { $0 = Self.currentThread() }
      release.wait()
      return 42
    })
    // The initialiser returned although the value cannot be made until this thread says so.
    release.signal()
    #expect(pending.value == 42)
    #expect(makerThread.withLock { $0 } != Self.currentThread())
  }

  @Test func everyReaderWaitingForTheValueGetsIt() {
    let release = DispatchSemaphore(value: 0)
    let pending = PendingValue<[String]>(makingInBackground: {
      release.wait()
      return ["made"]
    })
    // Readers on threads of their own (blocking the concurrency pool's few threads could
    // starve the test), started before the value is made.
    let readers = DispatchGroup()
    let results = Mutex<[[String]]>([])
    for _ in 0..<4 {
      DispatchQueue.global().async(group: readers) {
        let value = pending.value
        results.withLock { $0.append(value) }
      }
    }
    usleep(20_000)
    release.signal()
    readers.wait()
    #expect(results.withLock { $0 } == Array(repeating: ["made"], count: 4))
    #expect(pending.value == ["made"])
  }

  @Test func aValueGivenAtOnceIsReadWithoutAThread() {
    let pending = PendingValue("ready")
    #expect(pending.value == "ready")
  }
}
