import Foundation
import Glibc
import Synchronization
import Testing

@testable import Archives

/// ``DetachedRelease``: what `pack --update` lets go of at its end (the replaced archive) is
/// deinitialised on another thread.
@Suite struct DetachedReleaseTests {
  /// Records where and in which order its instances are deinitialised.
  private final class Witness: @unchecked Sendable {
    static let log = Mutex<[(name: String, thread: pthread_t)]>([])
    let name: String
    init(_ name: String) { self.name = name }
    deinit {
      let entry = (name, pthread_self())
      Self.log.withLock { $0.append(entry) }
    }
  }

  @Test func theValueIsDeinitialisedOnAnotherThread() async throws {
    Witness.log.withLock { $0 = [] }
    DetachedRelease.release(Witness("archive"))
    let caller = pthread_self()
    // The thread is not waited for: the test polls, for at most five seconds.
    var log: [(name: String, thread: pthread_t)] = []
    for _ in 0..<500 {
      log = Witness.log.withLock { $0 }
      if log.count == 1 { break }
      try await Task.sleep(for: .milliseconds(10))
    }
    try #require(log.count == 1, "\(log.map(\.name))")
    #expect(log[0].name == "archive")
    #expect(pthread_equal(log[0].thread, caller) == 0)
  }
}
