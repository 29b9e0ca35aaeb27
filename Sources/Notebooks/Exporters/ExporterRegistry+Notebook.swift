public import Documents

extension ExporterRegistry {
  /// The sample notebook's exporters: the notebook (`com.example.notebook`) to plain text,
  /// Markdown, HTML and JSON, and plain text back to a notebook.
  public static let notebook = ExporterRegistry(
    NotebookFormat.allCases.map { NotebookExporter(format: $0) as any Exporter }
      + [TextToNotebookExporter()])

  /// This registry with the sample notebook's exporters registered first, so they win ties as
  /// a program's own format should.
  ///
  /// - Returns: The new registry.
  public func addingNotebookExporters() -> ExporterRegistry {
    ExporterRegistry(Self.notebook.exporters + exporters)
  }
}
