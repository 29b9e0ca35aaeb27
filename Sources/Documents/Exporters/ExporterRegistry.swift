import Archives
public import UniformTypes

/// The exporters an export may use, in registration order.
///
/// Order breaks ties: between two equally specific exporters, the one
/// registered first is chosen. ``builtIn`` holds Folio's own exporters; a
/// program adds its own with ``adding(_:)``.
public struct ExporterRegistry: Sendable {
  /// The exporters, in registration order.
  public private(set) var exporters: [any Exporter]

  /// Creates a registry.
  ///
  /// - Parameter exporters: The exporters, in order of preference for ties.
  public init(_ exporters: [any Exporter]) { self.exporters = exporters }

  /// A registry with one more exporter, registered last.
  ///
  /// - Parameter exporter: The exporter.
  /// - Returns: The new registry.
  public func adding(_ exporter: any Exporter) -> ExporterRegistry {
    var copy = self
    copy.exporters.append(exporter)
    return copy
  }

  /// The exporters that accept a type: those whose source type it conforms to.
  ///
  /// - Parameters:
  ///   - type: The input's type.
  ///   - registry: The types known.
  /// - Returns: The exporters, in registration order.
  public func exporters(accepting type: UTType, registry: TypeRegistry) -> [any Exporter] {
    exporters.filter { registry.conforms(type, to: $0.sourceType) }
  }
}
