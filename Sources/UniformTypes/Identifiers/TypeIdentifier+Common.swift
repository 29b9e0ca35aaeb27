// Constants for the types Folio's own code and its users name most often.
// Every constant here is declared in the compiled-in system table
// (`SystemTypeTable.swift`), with its conformance and tags.

extension TypeIdentifier {
  // MARK: Roots and file-system items

  /// `public.item`: the root of the file-system hierarchy.
  public static let item: TypeIdentifier = "public.item"
  /// `public.content`: the root of the content (what a file means) hierarchy.
  public static let content: TypeIdentifier = "public.content"
  /// `public.composite-content`: mixed content such as PDF or a notebook.
  public static let compositeContent: TypeIdentifier = "public.composite-content"
  /// `public.data`: any byte stream (a regular file).
  public static let data: TypeIdentifier = "public.data"
  /// `public.directory`: any directory.
  public static let directory: TypeIdentifier = "public.directory"
  /// `public.folder`: a directory the user sees as a folder.
  public static let folder: TypeIdentifier = "public.folder"
  /// `public.volume`: a mounted volume.
  public static let volume: TypeIdentifier = "public.volume"
  /// `com.apple.package`: a directory shown to the user as one file.
  public static let package: TypeIdentifier = "com.apple.package"
  /// `com.apple.bundle`: a directory with a bundle layout.
  public static let bundle: TypeIdentifier = "com.apple.bundle"
  /// `com.apple.application-bundle`: an `.app` bundle.
  public static let applicationBundle: TypeIdentifier = "com.apple.application-bundle"
  /// `public.symlink`: a symbolic link.
  public static let symlink: TypeIdentifier = "public.symlink"
  /// `public.executable`: anything that can be run.
  public static let executable: TypeIdentifier = "public.executable"
  /// `public.url`: a URL.
  public static let url: TypeIdentifier = "public.url"
  /// `public.file-url`: a `file:` URL.
  public static let fileURL: TypeIdentifier = "public.file-url"

  // MARK: Text

  /// `public.text`: any text, encoded or marked up.
  public static let text: TypeIdentifier = "public.text"
  /// `public.plain-text`: text with no markup (`.txt`).
  public static let plainText: TypeIdentifier = "public.plain-text"
  /// `public.utf8-plain-text`: plain text in UTF-8.
  public static let utf8PlainText: TypeIdentifier = "public.utf8-plain-text"
  /// `public.utf16-plain-text`: plain text in UTF-16 with a byte-order mark.
  public static let utf16PlainText: TypeIdentifier = "public.utf16-plain-text"
  /// `public.source-code`: program source text.
  public static let sourceCode: TypeIdentifier = "public.source-code"
  /// `public.json`: JSON text.
  public static let json: TypeIdentifier = "public.json"
  /// `public.xml`: XML text.
  public static let xml: TypeIdentifier = "public.xml"
  /// `com.apple.property-list`: a property list in any format.
  public static let propertyList: TypeIdentifier = "com.apple.property-list"
  /// `com.apple.xml-property-list`: an XML property list.
  public static let xmlPropertyList: TypeIdentifier = "com.apple.xml-property-list"
  /// `com.apple.binary-property-list`: a binary (`bplist00`) property list.
  public static let binaryPropertyList: TypeIdentifier = "com.apple.binary-property-list"
  /// `public.html`: HTML text.
  public static let html: TypeIdentifier = "public.html"
  /// `public.rtf`: Rich Text Format.
  public static let rtf: TypeIdentifier = "public.rtf"
  /// `net.daringfireball.markdown`: Markdown text (`.md`).
  public static let markdown: TypeIdentifier = "net.daringfireball.markdown"
  /// `public.comma-separated-values-text`: CSV.
  public static let commaSeparatedText: TypeIdentifier = "public.comma-separated-values-text"
  /// `public.tab-separated-values-text`: TSV.
  public static let tabSeparatedText: TypeIdentifier = "public.tab-separated-values-text"

  // MARK: Images, audio, video, documents

  /// `public.image`: any image.
  public static let image: TypeIdentifier = "public.image"
  /// `public.jpeg`: a JPEG image.
  public static let jpeg: TypeIdentifier = "public.jpeg"
  /// `public.png`: a PNG image.
  public static let png: TypeIdentifier = "public.png"
  /// `public.tiff`: a TIFF image.
  public static let tiff: TypeIdentifier = "public.tiff"
  /// `com.compuserve.gif`: a GIF image.
  public static let gif: TypeIdentifier = "com.compuserve.gif"
  /// `public.heic`: a HEIC image.
  public static let heic: TypeIdentifier = "public.heic"
  /// `public.svg-image`: an SVG image.
  public static let svg: TypeIdentifier = "public.svg-image"
  /// `com.adobe.pdf`: a PDF document.
  public static let pdf: TypeIdentifier = "com.adobe.pdf"
  /// `public.audiovisual-content`: any audio or video.
  public static let audiovisualContent: TypeIdentifier = "public.audiovisual-content"
  /// `public.movie`: any video (with or without sound).
  public static let movie: TypeIdentifier = "public.movie"
  /// `public.audio`: any audio.
  public static let audio: TypeIdentifier = "public.audio"
  /// `public.mpeg-4`: an MPEG-4 movie.
  public static let mpeg4Movie: TypeIdentifier = "public.mpeg-4"
  /// `public.mp3`: MP3 audio.
  public static let mp3: TypeIdentifier = "public.mp3"
  /// `public.font`: any font file.
  public static let font: TypeIdentifier = "public.font"
  /// `public.spreadsheet`: any spreadsheet.
  public static let spreadsheet: TypeIdentifier = "public.spreadsheet"
  /// `public.presentation`: any slide presentation.
  public static let presentation: TypeIdentifier = "public.presentation"

  // MARK: Archives and compression

  /// `public.archive`: any archive or compressed file (its bytes are already packed).
  public static let archive: TypeIdentifier = "public.archive"
  /// `public.zip-archive`: a zip archive (`.zip`).
  public static let zipArchive: TypeIdentifier = "public.zip-archive"
  /// `public.tar-archive`: a tar archive (`.tar`).
  public static let tarArchive: TypeIdentifier = "public.tar-archive"
  /// `org.gnu.gnu-zip-archive`: a gzip-compressed file (`.gz`).
  public static let gzip: TypeIdentifier = "org.gnu.gnu-zip-archive"
  /// `org.gnu.gnu-zip-tar-archive`: a gzip-compressed tar archive (`.tgz`, `.tar.gz`).
  public static let gzipTarArchive: TypeIdentifier = "org.gnu.gnu-zip-tar-archive"
  /// `public.bzip2-archive`: a bzip2-compressed file (`.bz2`).
  public static let bzip2: TypeIdentifier = "public.bzip2-archive"
  /// `public.tar-bzip2-archive`: a bzip2-compressed tar archive (`.tbz2`, `.tar.bz2`).
  public static let bzip2TarArchive: TypeIdentifier = "public.tar-bzip2-archive"
  /// `org.tukaani.xz-archive`: an xz-compressed file (`.xz`).
  public static let xz: TypeIdentifier = "org.tukaani.xz-archive"
  /// `org.tukaani.tar-xz-archive`: an xz-compressed tar archive (`.txz`, `.tar.xz`).
  public static let xzTarArchive: TypeIdentifier = "org.tukaani.tar-xz-archive"
  /// `com.facebook.zstandard-archive`: a Zstandard-compressed file (`.zst`).
  public static let zstandard: TypeIdentifier = "com.facebook.zstandard-archive"
  /// `com.facebook.zstandard-tar-archive`: a Zstandard-compressed tar archive (`.tzst`, `.tar.zst`).
  public static let zstandardTarArchive: TypeIdentifier = "com.facebook.zstandard-tar-archive"
  /// `public.disk-image`: any disk image.
  public static let diskImage: TypeIdentifier = "public.disk-image"
}
