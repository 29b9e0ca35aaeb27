import Archives
import PropertyLists
import UniformTypes

extension ExporterRegistry {
  /// Folio's own exporters for the content types every platform has (the sample notebook's
  /// exporters are in the `Notebooks` module, which adds them with `addingNotebookExporters()`).
  ///
  /// - plain text to UTF-8, UTF-16 (little- and big-endian, with a byte-order mark) and Latin-1;
  /// - property lists to XML, binary and JSON property lists, and JSON to XML and binary ones;
  /// - packages (`com.apple.package`) and folders to every archive format ``Packer`` writes,
  ///   and those archives back to folders (or to the package their name announces) with ``Expander``.
  public static let builtIn = ExporterRegistry(
    TextEncoding.allCases.map { TextEncodingExporter(encoding: $0) as any Exporter }
      + PropertyListFormat.writable.map { PropertyListExporter(format: $0) as any Exporter }
      + [
        PropertyListExporter(format: .xml, from: .json),
        PropertyListExporter(format: .binary, from: .json),
      ]
      + [UTType.package, .folder].flatMap { source in
        ArchiveFormat.allCases.map {
          ArchivePackingExporter(format: $0, from: source) as any Exporter
        }
      }
      + ArchiveFormat.allCases.map { ArchiveExpandingExporter(format: $0) as any Exporter })
}
