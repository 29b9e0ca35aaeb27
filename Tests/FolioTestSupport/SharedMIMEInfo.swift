public import Foundation

/// The machine's shared MIME database, which tests of the desktop type database read.
public enum SharedMIMEInfo {
  /// `/usr/share/mime`, where Debian's shared-mime-info installs it.
  public static let root = URL(fileURLWithPath: "/usr/share/mime", isDirectory: true)

  /// Whether the database is installed (its `packages` folder exists).
  public static var isInstalled: Bool {
    FileManager.default.fileExists(atPath: root.appendingPathComponent("packages").path)
  }

}

/// A source file of the shared MIME database, wrapped in the document element.
public func mimeInfo(_ body: String) -> Data {
  Data(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
    \(body)
    </mime-info>
    """.utf8)
}
