import Foundation
import Glibc
import Synchronization
import Testing

@testable import Archives

/// ``DetachedRelease``: what `pack --update` lets go of at its end (the replaced archive,
/// the walk's entries) is deinitialised on another thread, first things first.
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

  @Test func valuesAreDeinitialisedOnAnotherThreadTheFirstOneFirst() async throws {
    Witness.log.withLock { $0 = [] }
    DetachedRelease.release(Witness("archive"), then: [Witness("entry 1"), Witness("entry 2")])
    let caller = pthread_self()
    // The thread is not waited for: the test polls, for at most five seconds.
    var log: [(name: String, thread: pthread_t)] = []
    for _ in 0..<500 {
      log = Witness.log.withLock { $0 }
      if log.count == 3 { break }
      try await Task.sleep(for: .milliseconds(10))
    }
    try #require(log.count == 3, "\(log.map(\.name))")
    #expect(log[0].name == "archive")
    #expect(Set(log.dropFirst().map(\.name)) == ["entry 1", "entry 2"])
    #expect(log.allSatisfy { pthread_equal($0.thread, caller) == 0 })
    #expect(pthread_equal(log[0].thread, log[1].thread) != 0)
  }
}
