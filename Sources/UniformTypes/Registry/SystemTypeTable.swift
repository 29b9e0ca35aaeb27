// The system-declared types Folio knows without reading any file.
//
// Sources (system-types.tsv beside this file, copied from the project research notes): Apple's
// UTCoreTypes.h (macOS 11.3 SDK) and its archived "System-Declared Uniform
// Type Identifiers" page give identifiers and parents; tags come from a dump of
// current macOS declarations. Rows are in lookup order: when several system
// types claim one tag, the earlier row wins (so `plist` is
// `com.apple.property-list`, `mp4` is `public.mpeg-4`, `gz` is gzip).
//
// Provenance:
// - `.apple`: an Apple-authored source names the identifier and its parents.
// - `.appleUnconfirmed`: Apple declares it (a dump of macOS or an OS 27 header),
//   but no Apple document read here confirms its parents or tags.
// - `.folio`: Folio's choice where Apple declares nothing for a format Folio
//   writes: compressed tar variants (`tar.bz2`, `tar.xz`, `tar.zst`) and
//   Zstandard use the identifiers of the format owners' domains that archive
//   tools on macOS use (`org.bzip.`, `org.tukaani.`, `com.facebook.`), and
//   `tar.gz` is added beside Apple's `tgz`, as shared-mime-info's `*.tar.gz`.

/// One row of the compiled-in system table.
struct SystemTypeEntry: Sendable {
  /// Where a row's facts come from.
  enum Provenance: String, Sendable {
    case apple
    case appleUnconfirmed = "apple-unconfirmed"
    case folio
  }

  let identifier: String
  let description: String
  let conformsTo: [String]
  let extensions: [String]
  let mimeTypes: [String]
  let provenance: Provenance

  init(
    _ identifier: String, _ description: String, _ conformsTo: [String],
    _ extensions: [String] = [], _ mimeTypes: [String] = [], _ provenance: Provenance = .apple
  ) {
    self.identifier = identifier
    self.description = description
    self.conformsTo = conformsTo
    self.extensions = extensions
    self.mimeTypes = mimeTypes
    self.provenance = provenance
  }
}

/// The rows, in lookup order.
let systemTypeTable: [SystemTypeEntry] = [
  // MARK: Roots and the file system
  .init("public.item", "item", []),
  .init("public.content", "content", []),
  .init("public.data", "data", ["public.item"], [], ["application/octet-stream"]),
  .init("public.directory", "directory", ["public.item"]),
  .init("public.folder", "folder", ["public.directory"]),
  .init("public.volume", "volume", ["public.folder"]),
  .init("com.apple.package", "package", ["public.directory"]),
  .init("com.apple.bundle", "bundle", ["public.directory"]),
  .init(
    "com.apple.localizable-name-bundle", "localizable name bundle", ["com.apple.bundle"],
    [], [], .appleUnconfirmed),
  .init("public.executable", "executable", ["public.item"]),
  .init("com.apple.application", "application", ["public.executable"]),
  .init(
    "com.apple.application-bundle", "application bundle",
    ["com.apple.application", "com.apple.localizable-name-bundle", "com.apple.package"], ["app"]),
  .init(
    "public.unix-executable", "Unix executable", ["public.data", "public.executable"],
    [], [], .appleUnconfirmed),
  .init("public.symlink", "symbolic link", ["public.item"], [], [], .appleUnconfirmed),
  .init("public.named-pipe", "named pipe", ["public.item"], [], [], .appleUnconfirmed),
  .init("public.socket", "socket", ["public.item"], [], [], .appleUnconfirmed),
  .init(
    "public.character-special", "character device", ["public.item"], [], [],
    .appleUnconfirmed),
  .init("public.block-special", "block device", ["public.item"], [], [], .appleUnconfirmed),
  .init("public.composite-content", "composite content", ["public.content"]),
  .init("public.url", "URL", ["public.data"]),
  .init("public.file-url", "file URL", ["public.url"]),
  .init("public.log", "log", ["public.item"]),
  .init("public.contact", "contact", []),
  .init("public.calendar-event", "calendar event", []),
  .init("public.spreadsheet", "spreadsheet", ["public.content"]),
  .init("public.presentation", "presentation", ["public.composite-content"]),
  .init("public.font", "font", ["public.data"]),

  // MARK: Text
  .init("public.text", "text", ["public.data", "public.content"]),
  .init("public.plain-text", "plain text", ["public.text"], ["txt", "text"], ["text/plain"]),
  .init(
    "public.utf8-plain-text", "UTF-8 plain text", ["public.plain-text"], [],
    ["text/plain;charset=utf-8", "text/plain;charset=\"utf-8\""]),
  .init(
    "public.utf16-plain-text", "UTF-16 plain text", ["public.plain-text"], [],
    ["text/plain;charset=utf-16", "text/plain;charset=\"utf-16\""]),
  .init("public.utf16-external-plain-text", "UTF-16 plain text (external)", ["public.plain-text"]),
  .init("public.delimited-values-text", "delimited values text", ["public.text"]),
  .init(
    "public.comma-separated-values-text", "comma-separated values",
    ["public.plain-text", "public.delimited-values-text"], ["csv"],
    ["text/csv", "text/comma-separated-values"]),
  .init(
    "public.tab-separated-values-text", "tab-separated values",
    ["public.plain-text", "public.delimited-values-text"], ["tsv"], ["text/tab-separated-values"]),
  .init("public.source-code", "source code", ["public.plain-text"]),
  .init("public.script", "script", ["public.source-code"]),
  .init("public.shell-script", "shell script", ["public.script"], ["sh", "command"]),
  .init(
    "public.python-script", "Python script", ["public.shell-script"], ["py"],
    ["text/x-python-script"]),
  .init("public.json", "JSON", ["public.text"], ["json"], ["application/json"]),
  .init("public.xml", "XML", ["public.text"], ["xml"], ["application/xml", "text/xml"]),
  .init(
    "public.yaml", "YAML", ["public.text"], ["yaml", "yml"], ["application/x-yaml"],
    .appleUnconfirmed),
  .init("com.apple.property-list", "property list", ["public.data"], ["plist"]),
  .init(
    "com.apple.xml-property-list", "XML property list", ["public.xml", "com.apple.property-list"],
    ["plist"]),
  .init(
    "com.apple.binary-property-list", "binary property list", ["com.apple.property-list"],
    ["plist"]),
  .init("public.html", "HTML", ["public.text"], ["html", "htm", "shtml", "shtm"], ["text/html"]),
  .init("public.rtf", "rich text", ["public.text"], ["rtf"], ["text/rtf"]),
  .init(
    "net.daringfireball.markdown", "Markdown", ["public.utf8-plain-text"], ["md", "markdown"],
    ["text/markdown"], .appleUnconfirmed),
  .init(
    "com.apple.log", "log file", ["public.plain-text", "public.log"], ["log"], [],
    .appleUnconfirmed),
  .init(
    "public.vcard", "vCard", ["public.text", "public.contact"], ["vcf", "vcard"],
    ["text/vcard", "text/directory", "text/x-vcard"]),

  // MARK: Documents
  .init(
    "com.adobe.pdf", "PDF document", ["public.data", "public.composite-content"], ["pdf"],
    ["application/pdf"]),
  .init(
    "com.apple.rtfd", "rich text with attachments",
    [
      "com.apple.package", "public.composite-content",
    ], ["rtfd"]),
  .init(
    "com.apple.flat-rtfd", "flat rich text with attachments",
    [
      "public.data", "public.composite-content",
    ]),
  .init(
    "com.microsoft.word.doc", "Word document", ["public.data", "public.composite-content"],
    ["doc"], ["application/msword"]),
  .init(
    "org.openxmlformats.openxml", "Office Open XML", ["public.data"], [], [],
    .appleUnconfirmed),
  .init(
    "org.openxmlformats.wordprocessingml.document", "Word document (Office Open XML)",
    ["org.openxmlformats.openxml", "public.composite-content"], ["docx"],
    ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
    .appleUnconfirmed),
  .init(
    "org.openxmlformats.spreadsheetml.sheet", "Excel workbook (Office Open XML)",
    ["org.openxmlformats.openxml", "public.spreadsheet"], ["xlsx"],
    ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"], .appleUnconfirmed),
  .init(
    "org.openxmlformats.presentationml.presentation", "PowerPoint presentation (Office Open XML)",
    ["org.openxmlformats.openxml", "public.presentation"], ["pptx"],
    ["application/vnd.openxmlformats-officedocument.presentationml.presentation"],
    .appleUnconfirmed),
  .init(
    "public.truetype-ttf-font", "TrueType font", ["public.font"], ["ttf"], ["font/ttf"],
    .appleUnconfirmed),
  .init(
    "public.opentype-font", "OpenType font", ["public.font"], ["otf"], ["font/otf"],
    .appleUnconfirmed),

  // MARK: Images
  .init("public.image", "image", ["public.data", "public.content"]),
  .init(
    "public.jpeg", "JPEG image", ["public.image"], ["jpeg", "jpg", "jpe"],
    ["image/jpeg", "image/jpg"]),
  .init("public.png", "PNG image", ["public.image"], ["png"], ["image/png"]),
  .init("public.tiff", "TIFF image", ["public.image"], ["tiff", "tif"], ["image/tiff"]),
  .init("com.compuserve.gif", "GIF image", ["public.image"], ["gif"], ["image/gif"]),
  .init("public.heif-standard", "HEIF image", ["public.image"], [], [], .appleUnconfirmed),
  .init("public.heic", "HEIC image", ["public.heif-standard"], ["heic"], ["image/heic"]),
  .init(
    "public.heif", "HEIF image", ["public.heif-standard"], ["heif"], ["image/heif"],
    .appleUnconfirmed),
  .init(
    "org.webmproject.webp", "WebP image", ["public.image"], ["webp"], ["image/webp"],
    .appleUnconfirmed),
  .init(
    "com.microsoft.bmp", "BMP image", ["public.image"], ["bmp"], ["image/bmp"],
    .appleUnconfirmed),
  .init(
    "com.microsoft.ico", "Windows icon", ["public.image"], ["ico"], ["image/vnd.microsoft.icon"],
    .appleUnconfirmed),
  .init(
    "public.svg-image", "SVG image", ["public.image", "public.xml"], ["svg", "svgz"],
    ["image/svg+xml"]),

  // MARK: Audio and video
  .init("public.audiovisual-content", "audiovisual content", ["public.data", "public.content"]),
  .init("public.movie", "movie", ["public.audiovisual-content"]),
  .init("public.audio", "audio", ["public.audiovisual-content"]),
  .init(
    "public.mpeg-4", "MPEG-4 movie", ["public.movie"], ["mp4", "mpg4"],
    ["video/mp4", "video/mp4v-es"]),
  .init(
    "public.mpeg-4-audio", "MPEG-4 audio", ["public.mpeg-4", "public.audio"], ["m4a", "mp4"],
    ["audio/mp4", "audio/x-m4a"], .appleUnconfirmed),
  .init(
    "com.apple.quicktime-movie", "QuickTime movie", ["public.movie"], ["mov", "qt"],
    ["video/quicktime"], .appleUnconfirmed),
  .init(
    "public.mpeg", "MPEG movie", ["public.movie"], ["mpeg", "mpg", "mpe"], ["video/mpeg"],
    .appleUnconfirmed),
  .init(
    "public.avi", "AVI movie", ["public.movie"], ["avi"],
    ["video/avi", "video/msvideo", "video/x-msvideo"], .appleUnconfirmed),
  .init(
    "org.webmproject.webm", "WebM movie", ["public.movie"], ["webm"], ["video/webm"],
    .appleUnconfirmed),
  .init(
    "public.mp3", "MP3 audio", ["public.audio"], ["mp3", "mpga"],
    [
      "audio/mpeg", "audio/mpeg3", "audio/mpg", "audio/mp3", "audio/x-mpeg", "audio/x-mpeg3",
      "audio/x-mpg", "audio/x-mp3",
    ]),
  .init(
    "public.aac-audio", "AAC audio", ["public.audio"], ["aac"], ["audio/aac"], .appleUnconfirmed),
  .init(
    "public.aiff-audio", "AIFF audio", ["public.audio"], ["aiff", "aif"], ["audio/aiff"],
    .appleUnconfirmed),
  .init(
    "com.microsoft.waveform-audio", "WAVE audio", ["public.audio"], ["wav", "wave"],
    ["audio/wav", "audio/x-wav"], .appleUnconfirmed),
  .init(
    "org.xiph.flac", "FLAC audio", ["public.audio"], ["flac"], ["audio/flac"], .appleUnconfirmed),

  // MARK: Archives and compression
  .init("public.archive", "archive", []),
  .init("com.pkware.zip-archive", "zip archive", ["public.data", "public.archive"]),
  .init(
    "public.zip-archive", "zip archive", ["com.pkware.zip-archive"], ["zip"],
    ["application/zip", "application/x-zip-compressed"]),
  .init(
    "org.gnu.gnu-tar-archive", "GNU tar archive", ["public.data", "public.archive"], ["gtar"],
    ["application/x-gtar"]),
  .init(
    "public.tar-archive", "tar archive", ["org.gnu.gnu-tar-archive"], ["tar"],
    ["application/x-tar", "application/tar"]),
  .init(
    "org.gnu.gnu-zip-archive", "gzip file", ["public.data", "public.archive"], ["gz", "gzip"],
    ["application/x-gzip", "application/gzip"]),
  .init(
    "org.gnu.gnu-zip-tar-archive", "gzip-compressed tar archive", ["org.gnu.gnu-zip-archive"],
    ["tgz", "tar.gz"], ["application/x-compressed-tar"]),
  .init(
    "public.bzip2-archive", "bzip2 file", ["public.data", "public.archive"], ["bz2", "bz"],
    [
      "application/x-bzip2", "application/x-bzip", "application/bzip2", "application/bzip",
      "application/x-bz2",
    ]),
  .init(
    "org.bzip.bzip2-tar-archive", "bzip2-compressed tar archive", ["public.bzip2-archive"],
    ["tbz2", "tbz", "tar.bz2"], ["application/x-bzip2-compressed-tar"], .folio),
  .init(
    "org.tukaani.xz-archive", "xz file", ["public.data", "public.archive"], ["xz"],
    ["application/x-xz"], .appleUnconfirmed),
  .init(
    "org.tukaani.tar-xz-archive", "xz-compressed tar archive", ["org.tukaani.xz-archive"],
    ["txz", "tar.xz"], ["application/x-xz-compressed-tar"], .folio),
  .init(
    "com.facebook.zstandard-archive", "Zstandard file", ["public.data", "public.archive"],
    ["zst"], ["application/zstd"], .folio),
  .init(
    "com.facebook.zstandard-tar-archive", "Zstandard-compressed tar archive",
    ["com.facebook.zstandard-archive"], ["tzst", "tar.zst"], ["application/x-zstd-compressed-tar"],
    .folio),
  .init(
    "org.7-zip.7-zip-archive", "7-Zip archive", ["public.data", "public.archive"], ["7z"],
    ["application/x-7z-compressed"], .appleUnconfirmed),
  .init(
    "com.rarlab.rar-archive", "RAR archive", ["public.data", "public.archive"], ["rar"],
    ["application/vnd.rar", "application/x-rar-compressed"], .appleUnconfirmed),
  .init("public.disk-image", "disk image", ["public.archive"]),
  .init(
    "com.apple.disk-image", "Apple disk image", ["public.disk-image"], [], [],
    .appleUnconfirmed),
  .init(
    "com.apple.disk-image-udif", "Apple disk image (UDIF)",
    ["com.apple.disk-image", "public.data"], ["dmg"],
    ["application/x-apple-diskimage"], .appleUnconfirmed),
  .init(
    "public.iso-image", "ISO disk image", ["public.disk-image", "public.data"], ["iso"],
    ["application/x-iso9660-image"], .appleUnconfirmed),
]
