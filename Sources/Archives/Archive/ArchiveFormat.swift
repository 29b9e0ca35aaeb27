public import UniformTypes

/// An archive format Folio writes: zip, or tar plain or compressed.
public enum ArchiveFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Zip (deflate or store per entry, ZIP64 when needed, UTF-8 names).
  case zip
  /// POSIX tar in restricted pax form (ustar, with pax records only where needed).
  case tar
  /// Tar compressed with gzip.
  case tarGzip = "tar.gz"
  /// Tar compressed with bzip2.
  case tarBzip2 = "tar.bz2"
  /// Tar compressed with xz.
  case tarXz = "tar.xz"
  /// Tar compressed with Zstandard.
  case tarZstd = "tar.zst"

  /// The name `--format` takes and help shows (`zip`, `tar.gz`).
  public var name: String { rawValue }

  public var description: String { rawValue }

  /// The usual file name extension, without the leading dot (`tar.gz`).
  public var fileExtension: String { rawValue }

  /// Every extension that names this format, the usual one first (`tar.gz`, `tgz`).
  public var fileExtensions: [String] {
    switch self {
    case .zip: ["zip"]
    case .tar: ["tar"]
    case .tarGzip: ["tar.gz", "tgz", "taz"]
    case .tarBzip2: ["tar.bz2", "tbz2", "tbz", "tb2"]
    case .tarXz: ["tar.xz", "txz"]
    case .tarZstd: ["tar.zst", "tzst", "tar.zstd"]
    }
  }

  /// The type of the format, as the system registry declares it (``UTType/zip`` for zip).
  public var type: UTType { UTType(resolved: typeIdentifier) }

  /// The identifier of the format's type.
  package var typeIdentifier: TypeIdentifier {
    switch self {
    case .zip: "public.zip-archive"
    case .tar: "public.tar-archive"
    case .tarGzip: "org.gnu.gnu-zip-tar-archive"
    case .tarBzip2: "public.tar-bzip2-archive"
    case .tarXz: "org.tukaani.tar-xz-archive"
    case .tarZstd: "com.facebook.zstandard-tar-archive"
    }
  }

  /// Whether the format is tar (plain or compressed).
  public var isTar: Bool { self != .zip }

  /// The compression levels the format accepts, or `nil` when it has none (plain tar).
  ///
  /// For zip, 0 stores every entry and 1–9 deflate; gzip and bzip2 take 1–9,
  /// xz 0–9, Zstandard 1–19.
  public var compressionLevels: ClosedRange<Int>? {
    switch self {
    case .zip: 0...9
    case .tar: nil
    case .tarGzip, .tarBzip2: 1...9
    case .tarXz: 0...9
    case .tarZstd: 1...19
    }
  }

  /// The level used when none is given: each compressor's own default.
  public var defaultCompressionLevel: Int? {
    switch self {
    case .zip, .tarGzip, .tarXz: 6
    case .tar: nil
    case .tarBzip2: 9
    case .tarZstd: 3
    }
  }

  /// The format a `--format` word names: a case's name or any of its extensions.
  ///
  /// - Parameter name: A word such as `zip`, `tar.gz`, `tgz`, `zst`.
  public init?(name: String) {
    let word = name.lowercased()
    let aliases: [String: ArchiveFormat] = [
      "gz": .tarGzip, "gzip": .tarGzip, "bz2": .tarBzip2, "bzip2": .tarBzip2, "xz": .tarXz,
      "zst": .tarZstd, "zstd": .tarZstd, "pax": .tar,
    ]
    if let format = ArchiveFormat.allCases.first(where: { $0.fileExtensions.contains(word) }) {
      self = format
    } else if let format = aliases[word] {
      self = format
    } else {
      return nil
    }
  }

  /// The format a type identifies: the most specific format the type conforms to.
  ///
  /// A type declared as conforming to `public.zip-archive` (a zip-based
  /// document format, say) is written as zip.
  ///
  /// - Parameters:
  ///   - type: A type.
  ///   - registry: The registry that knows the type's conformances: by default the
  ///     process's, with every declaration the program registered.
  public init?(type: UTType, registry: TypeRegistry = .default) {
    self.init(type: type.typeIdentifier, registry: registry)
  }

  /// The format an identifier's type names, by the rules of ``init(type:registry:)``.
  package init?(type: TypeIdentifier, registry: TypeRegistry = .default) {
    // Compressed tars first: each also conforms to its bare compressor's type.
    let order: [ArchiveFormat] = [.tarZstd, .tarXz, .tarBzip2, .tarGzip, .tar, .zip]
    guard let format = order.first(where: { registry.conforms(type, to: $0.typeIdentifier) })
    else { return nil }
    self = format
  }

  /// The format a file name's extension names (`Notebook.tar.gz` → `.tarGzip`).
  ///
  /// A name ending in one of a format's ``fileExtensions`` is that format, whatever the
  /// registry declares. Any other name is typed through the registry, so a declared type
  /// conforming to an archive type (a zip-based `Sketch.sketchbookz`) names its format.
  ///
  /// - Parameters:
  ///   - fileName: A file name or path; only the last component counts.
  ///   - registry: The registry to type the name with: by default the process's.
  public init?(fileName: String, registry: TypeRegistry = .default) {
    let last = fileName.split(separator: "/").last.map(String.init) ?? fileName
    // Decided before the registry is asked: a pack names its format while the registry it
    // was given may still be building.
    let lowered = last.lowercased()
    var best: (format: ArchiveFormat, length: Int)?
    for format in ArchiveFormat.allCases {
      for fileExtension in format.fileExtensions where lowered.hasSuffix("." + fileExtension) {
        if fileExtension.count > (best?.length ?? -1) {
          best = (format, fileExtension.count)
        }
      }
    }
    if let best {
      self = best.format
      return
    }
    guard
      let format = ArchiveFormat(
        type: registry.identify(fileName: last, kind: .regularFile), registry: registry)
    else { return nil }
    self = format
  }
}
