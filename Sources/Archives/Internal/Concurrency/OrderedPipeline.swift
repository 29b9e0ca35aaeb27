/// Work handed to a ``WorkerPool`` in order and handed back in the same
/// order, through a fixed number of reusable work objects.
///
/// The producing thread fills a work object (a batch of entries, a chunk of a
/// stream), submits it, and keeps filling the next; workers process objects in
/// parallel; the producer delivers finished objects strictly in submission
/// order (writing them out) before reusing them. At most ``capacity`` objects
/// exist, so memory is bounded by the capacity times one object's buffers,
/// whatever the input; output order, and so the output's bytes, do not depend
/// on how many threads did the work.
///
/// Only the producing thread calls the pipeline's methods.
final class OrderedPipeline<Work: AnyObject & Sendable, State> {
  private let pool: WorkerPool<State>
  private let process: @Sendable (Work, State) -> Void
  private let board: CompletionBoard
  private var inFlight: [(work: Work, ticket: Int)] = []
  private var inFlightHead = 0
  private var spares: [Work] = []
  private var made = 0
  private var nextTicket = 0

  /// The most work objects that exist at once.
  let capacity: Int

  /// Creates a pipeline over a pool.
  ///
  /// - Parameters:
  ///   - pool: The threads that process work.
  ///   - capacity: The most work objects at once (at least 1; `2 × threads + 1` keeps
  ///     every thread busy while the producer writes one object and fills another).
  ///   - process: Does one object's work on a worker thread; records failures in the object.
  init(
    pool: WorkerPool<State>, capacity: Int, process: @escaping @Sendable (Work, State) -> Void
  ) {
    self.pool = pool
    self.capacity = max(1, capacity)
    self.process = process
    board = CompletionBoard(slots: self.capacity)
  }

  /// A work object to fill: a spare one, a new one while fewer than ``capacity``
  /// exist, or else the oldest in flight once it is finished and delivered.
  ///
  /// - Parameters:
  ///   - make: Makes a new object.
  ///   - deliver: Writes out a finished object (called in submission order).
  /// - Returns: An object that no worker holds.
  /// - Throws: What `deliver` throws.
  func nextWork(make: () throws -> Work, deliver: (Work) throws -> Void) throws -> Work {
    if let spare = spares.popLast() { return spare }
    if made < capacity {
      made += 1
      return try make()
    }
    try deliverOldest(deliver)
    return spares.popLast()!
  }

  /// Hands a filled object to the workers.
  ///
  /// - Parameter work: An object from ``nextWork(make:deliver:)``.
  func submit(_ work: Work) {
    let ticket = nextTicket
    nextTicket += 1
    let slot = ticket % capacity
    board.start(slot)
    inFlight.append((work, ticket))
    let process = self.process
    let board = self.board
    pool.submit { state in
      process(work, state)
      board.finish(slot)
    }
  }

  /// Processes a filled object on the producer's thread, then queues it behind the objects
  /// in flight, to be delivered in its turn: for work too small to pay for a hand-over to a
  /// worker and back (whose data would then cross between cores twice).
  ///
  /// - Parameters:
  ///   - work: An object from ``nextWork(make:deliver:)``.
  ///   - process: Does the object's work here.
  func submit(_ work: Work, processingHere process: (Work) -> Void) {
    process(work)
    // Its slot is never marked busy: delivering it waits for nothing. No other object in
    // flight has that slot, since at most ``capacity`` consecutive tickets are in flight.
    nextTicket += 1
    inFlight.append((work, nextTicket - 1))
  }

  /// Delivers every object in flight, in order.
  ///
  /// - Parameter deliver: Writes out a finished object.
  /// - Throws: What `deliver` throws (the objects after it stay undelivered).
  func drain(_ deliver: (Work) throws -> Void) throws {
    while inFlightHead < inFlight.count { try deliverOldest(deliver) }
  }

  /// Waits until no worker holds an object, delivering nothing: after a
  /// failure, before the files and buffers the work uses are released.
  func abandon() {
    while inFlightHead < inFlight.count {
      let (work, ticket) = inFlight[inFlightHead]
      board.wait(ticket % capacity)
      inFlightHead += 1
      spares.append(work)
    }
    inFlight.removeAll()
    inFlightHead = 0
  }

  private func deliverOldest(_ deliver: (Work) throws -> Void) throws {
    let (work, ticket) = inFlight[inFlightHead]
    board.wait(ticket % capacity)
    inFlightHead += 1
    if inFlightHead == inFlight.count {
      inFlight.removeAll(keepingCapacity: true)
      inFlightHead = 0
    }
    spares.append(work)
    try deliver(work)
  }
}

/// Which of a pipeline's slots hold finished work, shared with the workers.
final class CompletionBoard: @unchecked Sendable {
  private let lock = ConditionLock()
  private var busy: [Bool]

  init(slots: Int) { busy = Array(repeating: false, count: slots) }

  func start(_ slot: Int) { lock.withLock { busy[slot] = true } }

  func finish(_ slot: Int) {
    lock.withLock {
      busy[slot] = false
      lock.broadcast()
    }
  }

  func wait(_ slot: Int) {
    lock.withLock { while busy[slot] { lock.wait() } }
  }
}
