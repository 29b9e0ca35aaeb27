import FoundationEssentials
import Glibc
import UniformTypes

/// Decides whether deflating a file is worth it, before its header is written.
///
/// Two signals: the file's name says its type is already compressed (images,
/// audio, video, archives), or sampled chunks of its bytes look random. The
/// sample test is an order-0 entropy estimate: deflate cannot shrink data
/// whose bytes carry close to 8 bits each, and stored entries cost nothing to
/// write or read back.
final class CompressibilityProbe {
  /// Above this many bits per byte a sample counts as incompressible.
  static let incompressibleEntropy = 7.8
  /// Files smaller than this are always deflated: too small to judge, and
  /// cheap to compress.
  static let smallestSampledSize = 4096
  /// Files smaller than this are stored: deflate's own overhead (a block
  /// header, a data descriptor) outweighs what it could save.
  static let smallestDeflatedSize = 64
  /// How many bytes each extra sample (at ¼, ½ and ¾ of a large file) reads.
  static let sampleSize = 16 * 1024

  private let registry: TypeRegistry?
  /// Whether each type met so far conforms to a compressed type.
  private var compressedTypes: [TypeIdentifier: Bool] = [:]
  private let histogram = UnsafeMutablePointer<Int>.allocate(capacity: 256)
  let sampleBuffer = UnsafeMutableRawBufferPointer.allocate(
    byteCount: CompressibilityProbe.sampleSize, alignment: 16)

  /// Creates a probe.
  ///
  /// - Parameter registry: The registry that types file names; `nil` where the probe only
  ///   samples bytes (a gzip stream has no file names), so that no registry is built for it.
  init(registry: TypeRegistry?) {
    self.registry = registry
  }

  deinit {
    histogram.deallocate()
    sampleBuffer.deallocate()
  }

  /// Whether a file's name marks it as already compressed.
  ///
  /// The name is typed through the registry: a type conforming to one of
  /// ``CompressedContent/types`` is compressed. Extensions the registry does
  /// not declare are looked up in ``CompressedContent/fileExtensions``.
  ///
  /// - Parameter fileName: The file's name (only the extension counts).
  /// - Returns: `true` for JPEG, PNG, MP4, zip and the like.
  func isAlreadyCompressed(fileName: String) -> Bool {
    guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return false }
    let fileExtension = fileName[fileName.index(after: dot)...].lowercased()
    guard let registry else { return CompressedContent.fileExtensions.contains(fileExtension) }
    let type = registry.identifier(forFileNamed: fileName, kind: .regularFile)
    // Conformance depends on the type alone, and a package's files share a few types.
    let compressed =
      compressedTypes[type]
      ?? {
        let answer = CompressedContent.types.contains { registry.conforms(type, to: $0) }
        compressedTypes[type] = answer
        return answer
      }()
    if compressed { return true }
    return CompressedContent.fileExtensions.contains(fileExtension)
  }

  /// Whether a sample of bytes looks too random to shrink.
  ///
  /// - Parameter bytes: The sample.
  /// - Returns: `true` when its order-0 entropy exceeds ``incompressibleEntropy``.
  func looksIncompressible(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count >= 1024 else { return false }
    histogram.initialize(repeating: 0, count: 256)
    for byte in bytes { histogram[Int(byte)] += 1 }
    let total = Double(bytes.count)
    var entropy = 0.0
    for value in 0..<256 where histogram[value] > 0 {
      let probability = Double(histogram[value]) / total
      entropy -= probability * log2(probability)
    }
    return entropy > Self.incompressibleEntropy
  }

  /// Samples a large file at ¼, ½ and ¾ of its length.
  ///
  /// - Parameters:
  ///   - descriptor: The open file.
  ///   - size: Its size.
  /// - Returns: `true` when every sample looks incompressible.
  func laterSamplesLookIncompressible(descriptor: Int32, size: Int64) -> Bool {
    for quarter in 1...3 {
      let offset = (size * Int64(quarter) / 4) & ~4095
      let count = pread(descriptor, sampleBuffer.baseAddress, sampleBuffer.count, off_t(offset))
      guard count > 0 else { return false }
      if !looksIncompressible(UnsafeRawBufferPointer(rebasing: sampleBuffer[0..<count])) {
        return false
      }
    }
    return true
  }
}

/// Content that is already compressed, so deflating it again only costs time.
enum CompressedContent {
  /// Types whose data is compressed.
  ///
  /// Lossy and lossless compressed images, movies, compressed audio,
  /// compressed archives. Not `public.image` or
  /// `public.audio` as a whole (TIFF, BMP, WAVE and AIFF are raw), nor
  /// `public.archive` (tar is not compressed).
  static let types: [TypeIdentifier] = [
    "public.jpeg", "public.png", "com.compuserve.gif", "public.heif-standard",
    "org.webmproject.webp", "public.movie", "public.mp3", "public.mpeg-4-audio",
    "public.aac-audio", "org.xiph.flac", "com.pkware.zip-archive", "org.gnu.gnu-zip-archive",
    "public.bzip2-archive", "org.tukaani.xz-archive", "com.facebook.zstandard-archive",
    "org.7-zip.7-zip-archive", "com.rarlab.rar-archive",
  ]

  /// Extensions of compressed content the system registry may not declare, lowercased.
  static let fileExtensions: Set<String> = [
    // Images
    "jpg", "jpeg", "jpe", "png", "gif", "webp", "heic", "heif", "avif", "jxl", "jp2",
    // Audio
    "mp3", "m4a", "aac", "ogg", "oga", "opus", "flac", "wma", "m4b",
    // Video
    "mp4", "m4v", "mov", "mkv", "webm", "avi", "wmv", "3gp", "mpg", "mpeg",
    // Archives and compressed streams
    "zip", "gz", "tgz", "bz2", "tbz2", "xz", "txz", "zst", "tzst", "lz", "lzma", "7z", "rar",
    "br", "sit", "sitx", "dmg", "xip",
    // Zip-based documents and packages
    "docx", "xlsx", "pptx", "odt", "ods", "odp", "epub", "jar", "apk", "ipa", "woff", "woff2",
  ]
}
