import Synchronization
import Testing

@testable import Archives

/// Work done on any number of threads comes back in the order it was submitted.
@Suite struct OrderedPipelineTests {
  final class Box: @unchecked Sendable {
    var input = 0
    var output = 0
  }

  static func run(threads: Int, capacity: Int, count: Int) throws -> [Int] {
    let pool = WorkerPool<Int>(threads: threads) { 0 }
    defer { pool.close() }
    let pipeline = OrderedPipeline<Box, Int>(pool: pool, capacity: capacity) { box, _ in
      // Uneven work, so later boxes often finish first.
      var value = box.input
      for _ in 0..<((box.input % 7) * 2000) { value = (value &* 31 &+ 7) % 1_000_003 }
      box.output = box.input * 10 + (value >= 0 ? 0 : 1)
    }
    var delivered: [Int] = []
    let deliver: (Box) throws -> Void = { delivered.append($0.output) }
    for index in 0..<count {
      let box = try pipeline.nextWork(make: { Box() }, deliver: deliver)
      box.input = index
      pipeline.submit(box)
    }
    try pipeline.drain(deliver)
    return delivered
  }

  @Test(arguments: [(0, 1), (1, 3), (2, 5), (4, 9)])
  func resultsArriveInSubmissionOrder(threads: Int, capacity: Int) throws {
    let delivered = try Self.run(threads: threads, capacity: capacity, count: 500)
    #expect(delivered == (0..<500).map { $0 * 10 })
  }

  @Test(arguments: [(0, 1), (2, 5), (4, 9)])
  func workProcessedHereArrivesInItsTurnAmongWorkersWork(threads: Int, capacity: Int) throws {
    let pool = WorkerPool<Int>(threads: threads) { 0 }
    defer { pool.close() }
    let pipeline = OrderedPipeline<Box, Int>(pool: pool, capacity: capacity) { box, _ in
      // Slow, so the objects processed here are ready long before those ahead of them.
      var value = box.input
      for _ in 0..<20_000 { value = (value &* 31 &+ 7) % 1_000_003 }
      box.output = box.input * 10 + (value >= 0 ? 0 : 1)
    }
    var delivered: [Int] = []
    let deliver: (Box) throws -> Void = { delivered.append($0.output) }
    for index in 0..<300 {
      let box = try pipeline.nextWork(make: { Box() }, deliver: deliver)
      box.input = index
      if index % 3 == 0 {
        pipeline.submit(box) { $0.output = $0.input * 10 }
      } else {
        pipeline.submit(box)
      }
    }
    try pipeline.drain(deliver)
    #expect(delivered == (0..<300).map { $0 * 10 })
  }

  @Test func noMoreWorkObjectsThanTheCapacityExist() throws {
    let made = Atomic<Int>(0)
    let pool = WorkerPool<Int>(threads: 2) { 0 }
    defer { pool.close() }
    let pipeline = OrderedPipeline<Box, Int>(pool: pool, capacity: 4) { _, _ in }
    for _ in 0..<100 {
      let box = try pipeline.nextWork(
        make: {
          made.add(1, ordering: .relaxed)
          return Box()
        }, deliver: { _ in })
      pipeline.submit(box)
    }
    try pipeline.drain { _ in }
    #expect(made.load(ordering: .relaxed) == 4)
  }

  @Test func aDeliveryFailureLeavesNoWorkerRunningAfterAbandon() throws {
    struct Stop: Error {}
    let pool = WorkerPool<Int>(threads: 2) { 0 }
    defer { pool.close() }
    let pipeline = OrderedPipeline<Box, Int>(pool: pool, capacity: 5) { box, _ in
      box.output = box.input
    }
    do {
      for index in 0..<50 {
        let box = try pipeline.nextWork(
          make: { Box() }, deliver: { if $0.output == 3 { throw Stop() } })
        box.input = index
        pipeline.submit(box)
      }
      Issue.record("the failing delivery did not stop the producer")
    } catch is Stop {
      pipeline.abandon()
    }
  }
}
