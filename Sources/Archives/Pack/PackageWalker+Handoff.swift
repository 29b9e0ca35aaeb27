extension PackageWalker {
  /// Entries handed from a walking thread to a writing one, a few hundred at a time, so
  /// the writer starts while later names are still being looked up.
  ///
  /// The walker's thread calls ``add(_:)`` and then ``finish(_:)``; the writer's calls
  /// ``next()`` until it returns `nil`, and ``stop()`` when it gives up, which makes the
  /// walker's next ``add(_:)`` throw.
  final class Handoff: @unchecked Sendable {
    /// The entries gathered before they are handed over.
    static let chunkSize = 256

    private let lock = ConditionLock()
    /// Handed over, not yet taken (under the lock).
    private var chunks: [[Item]] = []
    private var firstChunk = 0
    /// How the walk ended (under the lock).
    private var outcome: Result<Totals, any Error>?
    /// Whether the writer gave up (under the lock).
    private var stopped = false
    /// Gathered by the walker's thread alone.
    @exclusivity(unchecked) private var gathering: [Item] = []

    /// Why the walk ends when the writer has stopped.
    private struct Stopped: Error {}

    init() { gathering.reserveCapacity(Self.chunkSize) }

    /// Hands an entry over (the walker's thread).
    ///
    /// - Parameter item: The next entry in archive order.
    /// - Throws: When the writer has stopped.
    func add(_ item: Item) throws {
      gathering.append(item)
      if gathering.count >= Self.chunkSize { try handOver() }
    }

    /// Ends the walk (the walker's thread): what was gathered is handed over, then its
    /// totals or its failure.
    ///
    /// - Parameter result: The walk's totals, or why it failed.
    func finish(_ result: Result<Totals, any Error>) {
      var result = result
      if case .success = result {
        do { try handOver() } catch { result = .failure(error) }
      }
      lock.withLock {
        outcome = result
        lock.broadcast()
      }
    }

    /// The next entries in archive order (the writer's thread), waiting for them.
    ///
    /// - Returns: At least one entry, or `nil` once the walk has ended.
    /// - Throws: What the walk threw.
    func next() throws -> [Item]? {
      try lock.withLock {
        while firstChunk == chunks.count && outcome == nil { lock.wait() }
        if firstChunk < chunks.count {
          let chunk = chunks[firstChunk]
          chunks[firstChunk] = []
          firstChunk += 1
          return chunk
        }
        _ = try outcome?.get()
        return nil
      }
    }

    /// The walk's totals, once ``next()`` has returned `nil`.
    var totals: Totals {
      get throws {
        try lock.withLock {
          guard let outcome else { preconditionFailure("the walk has not ended") }
          return try outcome.get()
        }
      }
    }

    /// Gives up (the writer's thread): the walker stops at its next entry.
    func stop() {
      lock.withLock { stopped = true }
    }

    private func handOver() throws {
      guard !gathering.isEmpty else { return }
      let chunk = gathering
      gathering = []
      gathering.reserveCapacity(Self.chunkSize)
      try lock.withLock {
        if stopped { throw Stopped() }
        chunks.append(chunk)
        lock.broadcast()
      }
    }
  }

  /// Walks once in archive order, handing every entry over as it goes, then the totals
  /// (or the failure): one walk's system calls instead of ``count()``'s and ``walk(_:)``'s,
  /// for memory that grows with the tree (the writer keeps the entries).
  ///
  /// - Parameter handoff: Where the entries go.
  func walk(handingOffTo handoff: Handoff) {
    var totals = Totals()
    do {
      try walk(ordered: true, listingAttributes: listsAttributes, inParallel: looksUpInParallel) {
        item in
        totals.add(item)
        try handoff.add(item)
      }
      handoff.finish(.success(totals))
    } catch {
      handoff.finish(.failure(error))
    }
  }
}
