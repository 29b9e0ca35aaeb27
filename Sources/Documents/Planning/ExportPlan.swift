import Archives
public import UniformTypes

/// The exporters that take one input to a target type, in order, and why.
///
/// ``make(for:to:exporters:registry:)`` looks for the shortest chain of exporters
/// from the input's type to any type conforming to the target. An exporter
/// applies to a type that conforms to its source type; among chains of equal
/// length, the most specific one wins: the one whose exporters' source types
/// sit nearest the types they are given (an exporter for `com.example.notebook`
/// beats one for `com.apple.package` on a notebook), then the one whose result
/// sits nearest the target, then registration order.
public struct ExportPlan: Sendable {
  /// One exporter run: what it reads and writes in this plan.
  public struct Step: Sendable {
    /// The exporter.
    public var exporter: any Exporter
    /// The type of the step's input.
    public var inputType: UTType
    /// The type of the step's output.
    public var outputType: UTType
    /// The item the step reads (its name predicts later names and types).
    public var input: ExportItem

    /// `name (input → output)`, plus the declared types when conformance was used.
    public var summary: String {
      var text = "\(exporter.name) (\(inputType) → \(outputType))"
      if exporter.sourceType != inputType || exporter.targetType != outputType {
        text += ", registered for \(exporter.sourceType) → \(exporter.targetType)"
      }
      return text
    }
  }

  /// The document to export.
  public var input: ExportItem
  /// The type asked for.
  public var target: UTType
  /// The exporters to run, in order; empty never (a plan has at least one step).
  public var steps: [Step]
  /// The types known.
  public var registry: TypeRegistry
  /// How many threads a packing or expanding step uses, or `nil` for the processors the
  /// process may use, as packing and expanding choose; a step whose exporter names its
  /// own count (``PackOptions/jobs``, ``ExpansionPolicy/jobs``) keeps it.
  public var jobs: Int? = nil
  /// The most file bytes an archive read into memory may hold.
  ///
  /// A larger archive is expanded to disk (see ``readsArchiveInMemory(at:)``). Tests lower
  /// it for a task.
  @TaskLocal static var archiveMemoryLimit = FileWrapper.defaultArchiveMemoryLimit

  /// The type of the final output.
  public var resultType: UTType { steps.last?.outputType ?? input.type }

  /// The file name the output gets when the user does not choose one.
  public var defaultOutputName: String {
    guard let last = steps.last else { return input.fileName }
    return last.exporter.outputName(
      for: last.input, outputType: last.outputType, registry: registry)
  }

  /// The most steps a chain may take.
  public static let maximumSteps = 4

  /// Plans the export of an input to a target type.
  ///
  /// - Parameters:
  ///   - input: The document and its type.
  ///   - target: The type asked for; the result conforms to it.
  ///   - exporters: The exporters available.
  ///   - registry: The types known: by default the process's (``TypeRegistry/default``).
  /// - Returns: The plan.
  /// - Throws: ``ExportError`` `no-route` naming both types when no chain leads there.
  public static func make(
    for input: ExportItem, to target: UTType, exporters: ExporterRegistry,
    registry: TypeRegistry = .default
  ) throws -> ExportPlan {
    let routes = search(from: input, exporters: exporters, registry: registry) { type in
      registry.conforms(type, to: target)
    }
    let best = routes.min { a, b in
      a.cost(toward: target, registry: registry)
        .lexicographicallyPrecedes(b.cost(toward: target, registry: registry))
    }
    guard let best else {
      var message = "no exporter leads from \(input.type) ('\(input.displayName)') to \(target)"
      let reachable = Set(
        search(from: input, exporters: exporters, registry: registry) { _ in true }.map(
          \.resultType))
      if reachable.isEmpty {
        message += "; nothing is known to export \(input.type)"
      }
      throw ExportError(.noRoute, message)
    }
    return ExportPlan(input: input, target: target, steps: best.steps, registry: registry)
  }

  /// Every type the input can become, each with its best route, sorted by type.
  ///
  /// - Parameters:
  ///   - input: The document and its type.
  ///   - exporters: The exporters available.
  ///   - registry: The types known: by default the process's (``TypeRegistry/default``).
  /// - Returns: One plan per reachable type (other than the input's own type).
  public static func reachablePlans(
    for input: ExportItem, exporters: ExporterRegistry, registry: TypeRegistry = .default
  ) -> [ExportPlan] {
    var best: [UTType: Route] = [:]
    for route in search(from: input, exporters: exporters, registry: registry, { _ in true }) {
      let type = route.resultType
      guard type != input.type else { continue }
      if let current = best[type],
        !route.cost(toward: type, registry: registry)
          .lexicographicallyPrecedes(current.cost(toward: type, registry: registry))
      {
        continue
      }
      best[type] = route
    }
    return best.keys.sorted { $0.typeIdentifier < $1.typeIdentifier }.compactMap { type in
      best[type].map { ExportPlan(input: input, target: type, steps: $0.steps, registry: registry) }
    }
  }

  /// What the plan does, one line per fact, for `--explain`.
  public var explanation: [String] {
    var lines = ["'\(input.displayName)' is \(input.type)"]
    let supertypes = registry.supertypes(of: input.type)
    if !supertypes.isEmpty {
      lines[0] += " (conforms to \(supertypes.map(\.identifier).joined(separator: ", ")))"
    }
    lines.append("target \(target)")
    for (index, step) in steps.enumerated() {
      var line = "step \(index + 1): \(step.summary)"
      if readsArchiveInMemory(at: index) {
        line += "; read into memory for step \(index + 2), nothing expanded to disk"
      }
      lines.append(line)
    }
    return lines
  }

  /// The route as `a → b → c` exporter names, for `--list`.
  public var routeDescription: String { steps.map(\.exporter.name).joined(separator: " → ") }

  // MARK: Search

  struct Route {
    var steps: [Step]
    var specificity: Int
    var resultType: UTType { steps.last?.outputType ?? .item }

    /// Fewer steps first, then nearer source types, then a result nearer the target.
    func cost(toward target: UTType, registry: TypeRegistry) -> [Int] {
      let result = resultType
      let targetDistance =
        result == target
        ? 0 : (registry.supertypes(of: result).firstIndex(of: target).map { $0 + 1 } ?? 99)
      return [steps.count, specificity, targetDistance]
    }
  }

  /// How far `type` is from `ancestor`: 0 when equal, else its position among the supertypes plus one.
  static func distance(
    from type: UTType, to ancestor: UTType, registry: TypeRegistry
  ) -> Int {
    if type == ancestor { return 0 }
    return (registry.supertypes(of: type).firstIndex(of: ancestor).map { $0 + 1 }) ?? 99
  }

  /// Breadth-first over types, at most ``maximumSteps`` deep, keeping every
  /// route that ends in a type `isGoal` accepts; a type is expanded only from
  /// its shortest routes, so cycles end.
  static func search(
    from input: ExportItem, exporters: ExporterRegistry, registry: TypeRegistry,
    _ isGoal: (UTType) -> Bool
  ) -> [Route] {
    var results: [Route] = []
    var frontier = [Route(steps: [], specificity: 0)]
    var visited: Set<UTType> = [input.type]
    for _ in 0..<maximumSteps {
      var next: [Route] = []
      var reachedThisLevel: Set<UTType> = []
      for route in frontier {
        let item =
          route.steps.last.map { step in
            ExportItem(
              url: input.url, type: step.outputType, displayName: input.displayName,
              fileName: step.exporter.outputName(
                for: step.input, outputType: step.outputType, registry: registry))
          } ?? input
        for (order, exporter) in exporters.exporters.enumerated()
        where registry.conforms(item.type, to: exporter.sourceType) {
          let outputType = exporter.outputType(for: item, registry: registry)
          let step = Step(
            exporter: exporter, inputType: item.type, outputType: outputType, input: item)
          // Specificity: how near the exporter's source is to the type it gets; order breaks ties.
          let score =
            route.specificity * 1000 + distance(
              from: item.type, to: exporter.sourceType, registry: registry) * 100 + min(order, 99)
          let extended = Route(steps: route.steps + [step], specificity: score)
          if isGoal(outputType) { results.append(extended) }
          if !visited.contains(outputType) {
            reachedThisLevel.insert(outputType)
            next.append(extended)
          }
        }
      }
      visited.formUnion(reachedThisLevel)
      frontier = next
      if frontier.isEmpty { break }
    }
    return results
  }
}
