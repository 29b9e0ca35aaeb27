/// A manager that a reporter's manager was assigned to with `assign(count:to:)`.
struct ProgressAssignment: Sendable {
  weak var parent: ProgressManager?
}

extension ProgressManager {
  /// Adds a reporter's work as a child, standing for `count` of this manager's units.
  ///
  /// The reporter's partial work counts in ``fractionCompleted`` as it goes; when its
  /// manager finishes, the `count` units are completed here, as Foundation's
  /// `assign(count:to:)` does. Unlike a ``Subprogress``, the reporter's work need not have
  /// been started from this manager: it may be a root of its own, or already running.
  ///
  /// ```swift
  /// let download = ProgressManager(totalCount: 100)
  /// overall.assign(count: 1, to: download.reporter)
  /// ```
  ///
  /// Assigning a manager to itself or to one of its own descendants would count its
  /// work twice and is a programming error, so it stops the program, as Foundation's
  /// does when it detects a cycle.
  ///
  /// - Parameters:
  ///   - count: How many of this manager's units the reporter's work stands for.
  ///   - reporter: The reporter of the work to add.
  public func assign(count: Int, to reporter: ProgressReporter) {
    let child = reporter.manager
    precondition(
      !isDescendant(of: child),
      "assign(count:to:) would make a cycle: the reporter's work includes this manager")
    let count = max(0, count)
    children.withLock {
      $0.append(
        ChildLink(
          manager: child, identifier: ObjectIdentifier(child), assignedCount: count,
          assigned: child))
    }
    child.assignments.withLock { $0.append(ProgressAssignment(parent: self)) }
    // Work that finished before (or while) it was assigned counts at once.
    if child.isFinished { child.endAssignments() }
  }

  /// Completes this manager's share in each manager it was assigned to, once.
  func endAssignments() {
    let parents = assignments.withLock { links -> [ProgressManager] in
      defer { links.removeAll() }
      return links.compactMap(\.parent)
    }
    for parent in parents {
      let count = parent.children.withLock { links -> Int? in
        guard
          let index = links.firstIndex(where: {
            $0.assigned === self && $0.identifier == ObjectIdentifier(self)
          })
        else { return nil }
        return links[index].assignedCount
      }
      if let count { parent.childEnded(ObjectIdentifier(self), assignedCount: count) }
    }
  }

  /// Whether `ancestor` is this manager, or reaches it through parents and assignments.
  private func isDescendant(of ancestor: ProgressManager) -> Bool {
    var pending: [ProgressManager] = [self]
    var seen: Set<ObjectIdentifier> = []
    while let node = pending.popLast() {
      if node === ancestor { return true }
      guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
      if let up = node.parent { pending.append(up) }
      pending.append(contentsOf: node.assignments.withLock { $0.compactMap(\.parent) })
    }
    return false
  }
}
