import Documents
import Notebooks

extension ExporterRegistry {
  /// The exporters `folio export` offers: the library's built-in ones and the sample
  /// notebook's, which the command registers because the library does not hard-code one app's
  /// format.
  static let command = ExporterRegistry.builtIn.addingNotebookExporters()
}
