/// What a writer does when its output already exists.
///
/// Every Folio writer takes one and checks it the same way, before any work: packing
/// (`PackOptions.replacePolicy`), expanding (`Expander.expand(_:into:policy:replacePolicy:lockOptions:progress:)`),
/// exporting (`ExportPlan.run(to:replacePolicy:lockOptions:progress:)`, `BatchExport.Task`)
/// and writing a property list file (`PropertyListWriter.write(_:to:format:maximumOutputSize:replacePolicy:)`).
/// Without one, a writer refuses an existing output and leaves it untouched.
///
/// ``update`` means something only where there is something to keep: a packed zip reuses
/// the entries of files that did not change, an expansion keeps the files whose bytes and
/// attributes did not change. Exports and property list files are written whole, so they
/// refuse ``update`` (`update-unsupported`), whether or not the output exists, rather than
/// quietly replacing what the caller asked to keep.
///
/// ```swift
/// var options = PackOptions()
/// options.replacePolicy = .replace
/// try await Packer.pack(package, to: archive, options: options)
/// ```
public enum ReplacePolicy: String, Hashable, Sendable, CaseIterable {
  /// Refuse an existing output (`output-exists`) and leave it as it was.
  case refuse
  /// Replace an existing output atomically: the new one is moved into place whole.
  case replace
  /// Replace an existing output atomically, keeping from it what did not change.
  case update

  /// Whether the writer's final move may replace what is at the output.
  ///
  /// ``check(outputAt:updatable:)`` runs before the work; a writer also passes this to
  /// its last move (`rename` without `RENAME_NOREPLACE`), so under ``refuse`` an output
  /// that appeared meanwhile is not replaced either.
  package var replacesExisting: Bool { self != .refuse }

  /// Why a writer refused its output before any work.
  package struct Refusal: Error, Sendable, Equatable {
    /// What the check found; its raw value is the stable code every module's error
    /// gives it (`output-exists`, `update-unsupported`).
    package enum Reason: String, Sendable, Equatable {
      /// Something is at the output and the policy is ``ReplacePolicy/refuse``.
      case exists = "output-exists"
      /// The policy is ``ReplacePolicy/update`` and the writer writes its output whole.
      case updateUnsupported = "update-unsupported"
    }

    /// What the check found.
    package var reason: Reason
    /// The output's path.
    package var path: String

    /// Creates a refusal.
    ///
    /// - Parameters:
    ///   - reason: What the check found.
    ///   - path: The output's path.
    package init(reason: Reason, path: String) {
      self.reason = reason
      self.path = path
    }

    /// One line naming the output, for the writer's module error.
    package var message: String {
      switch reason {
      case .exists:
        "'\(path)' already exists"
      case .updateUnsupported:
        "cannot update '\(path)': it is written whole, so it can only be replaced or refused"
      }
    }
  }

  /// The one check of an output before any work: whether something is there (a file, a
  /// folder, a symbolic link, even a dangling one) and whether this policy lets the
  /// writer go on.
  ///
  /// - Parameters:
  ///   - path: The output's path.
  ///   - updatable: Whether the writer can update an output (packing, expanding); a writer
  ///     that cannot refuses ``update`` whether or not the output exists.
  /// - Returns: Whether something is at `path` (to be replaced or updated).
  /// - Throws: ``Refusal``.
  package func check(outputAt path: String, updatable: Bool) throws(Refusal) -> Bool {
    if self == .update && !updatable {
      throw Refusal(reason: .updateUnsupported, path: path)
    }
    let exists = FileTree.exists(path)
    if exists && self == .refuse {
      throw Refusal(reason: .exists, path: path)
    }
    return exists
  }
}
