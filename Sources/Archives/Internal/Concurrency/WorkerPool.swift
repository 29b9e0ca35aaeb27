import Glibc

/// A fixed set of threads that run submitted work in submission order, each
/// with state of its own (its compressors), for the pipeline's parallel cores.
///
/// With no threads the pool runs each job on the submitting thread, at once:
/// `--jobs 1` starts no thread at all. The pool is closed explicitly: ``close()``
/// lets the queued work finish and joins the threads, so no thread outlives
/// the files and buffers its work refers to.
final class WorkerPool<State>: @unchecked Sendable {
  /// One unit of work; it receives the running thread's own state.
  typealias Job = @Sendable (State) -> Void

  private let lock = ConditionLock()
  private var queue: [Job?] = []
  private var head = 0
  private var closing = false
  private var workers: [pthread_t] = []
  private let makeState: @Sendable () -> State
  /// The state of the submitting thread, when the pool has no threads.
  private var inlineState: State?

  /// The number of threads (0 runs work inline).
  let threadCount: Int

  /// Starts the threads.
  ///
  /// - Parameters:
  ///   - threads: How many threads to start; 0 runs every job inline.
  ///   - makeState: Makes one thread's state, on that thread, before its first job.
  init(threads: Int, makeState: @escaping @Sendable () -> State) {
    self.makeState = makeState
    threadCount = max(0, threads)
    for _ in 0..<threadCount {
      if let thread = startThread() { workers.append(thread) }
    }
  }

  private func startThread() -> pthread_t? {
    startPlainThread { [self] in runWorker() }
  }

  deinit {
    // The threads hold the pool while they run: reaching deinit means they ended.
  }

  /// Queues a job (or, without threads, runs it now).
  ///
  /// - Parameter job: The work.
  func submit(_ job: @escaping Job) {
    if workers.isEmpty {
      if inlineState == nil { inlineState = makeState() }
      job(inlineState!)
      return
    }
    lock.withLock {
      queue.append(job)
      lock.broadcast()
    }
  }

  /// Lets the queued jobs finish, then ends and joins the threads.
  func close() {
    lock.withLock {
      closing = true
      lock.broadcast()
    }
    for thread in workers { pthread_join(thread, nil) }
    workers = []
    inlineState = nil
  }

  private func runWorker() {
    let state = makeState()
    while let job = nextJob() {
      job(state)
    }
  }

  private func nextJob() -> Job? {
    lock.withLock {
      while head == queue.count && !closing { lock.wait() }
      guard head < queue.count else { return nil }
      let job = queue[head]
      queue[head] = nil
      head += 1
      if head > 64 && head * 2 > queue.count {
        queue.removeFirst(head)
        head = 0
      }
      return job
    }
  }
}

/// The closure a new thread runs, passed through `pthread_create`'s context pointer.
private final class ThreadBody {
  let run: @Sendable () -> Void
  init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// Starts a joinable thread running `body`.
///
/// - Parameter body: What the thread runs.
/// - Returns: The thread, or `nil` when the system refuses one.
private func startPlainThread(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
  let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
  var thread = pthread_t()
  let status = pthread_create(
    &thread, nil,
    { raw in
      let body = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
      body.run()
      return nil
    }, context)
  guard status == 0 else {
    Unmanaged<ThreadBody>.fromOpaque(context).release()
    return nil
  }
  return thread
}
