// Constants for the types Folio's own code names most often; the public API names types
// with UTType's constants (`UTType.plainText`), which spell the same identifiers.
// Every constant here is declared in the compiled-in system table
// (`SystemTypeTable.swift`), with its conformance and tags.

extension TypeIdentifier {
  // MARK: Roots and file-system items

  /// `public.item`: the root of the file-system hierarchy.
  package static let item: TypeIdentifier = "public.item"
  /// `public.content`: the root of the content (what a file means) hierarchy.
  package static let content: TypeIdentifier = "public.content"
  /// `public.composite-content`: mixed content such as PDF or a notebook.
  package static let compositeContent: TypeIdentifier = "public.composite-content"
  /// `public.data`: any byte stream (a regular file).
  package static let data: TypeIdentifier = "public.data"
  /// `public.directory`: any directory.
  package static let directory: TypeIdentifier = "public.directory"
  /// `public.folder`: a directory the user sees as a folder.
  package static let folder: TypeIdentifier = "public.folder"
  /// `public.volume`: a mounted volume.
  package static let volume: TypeIdentifier = "public.volume"
  /// `com.apple.package`: a directory shown to the user as one file.
  package static let package: TypeIdentifier = "com.apple.package"
  /// `com.apple.bundle`: a directory with a bundle layout.
  package static let bundle: TypeIdentifier = "com.apple.bundle"
  /// `com.apple.application-bundle`: an `.app` bundle.
  package static let applicationBundle: TypeIdentifier = "com.apple.application-bundle"
  /// `public.symlink`: a symbolic link.
  package static let symlink: TypeIdentifier = "public.symlink"
  /// `public.executable`: anything that can be run.
  package static let executable: TypeIdentifier = "public.executable"
  /// `public.url`: a URL.
  package static let url: TypeIdentifier = "public.url"
  /// `public.file-url`: a `file:` URL.
  package static let fileURL: TypeIdentifier = "public.file-url"

  // MARK: Text

  /// `public.text`: any text, encoded or marked up.
  package static let text: TypeIdentifier = "public.text"
  /// `public.plain-text`: text with no markup (`.txt`).
  package static let plainText: TypeIdentifier = "public.plain-text"
  /// `public.utf8-plain-text`: plain text in UTF-8.
  package static let utf8PlainText: TypeIdentifier = "public.utf8-plain-text"
  /// `public.utf16-plain-text`: plain text in UTF-16 with a byte-order mark.
  package static let utf16PlainText: TypeIdentifier = "public.utf16-plain-text"
  /// `public.source-code`: program source text.
  package static let sourceCode: TypeIdentifier = "public.source-code"
  /// `public.json`: JSON text.
  package static let json: TypeIdentifier = "public.json"
  /// `public.xml`: XML text.
  package static let xml: TypeIdentifier = "public.xml"
  /// `com.apple.property-list`: a property list in any format.
  package static let propertyList: TypeIdentifier = "com.apple.property-list"
  /// `com.apple.xml-property-list`: an XML property list.
  package static let xmlPropertyList: TypeIdentifier = "com.apple.xml-property-list"
  /// `com.apple.binary-property-list`: a binary (`bplist00`) property list.
  package static let binaryPropertyList: TypeIdentifier = "com.apple.binary-property-list"
  /// `public.html`: HTML text.
  package static let html: TypeIdentifier = "public.html"
  /// `public.rtf`: Rich Text Format.
  package static let rtf: TypeIdentifier = "public.rtf"
  /// `net.daringfireball.markdown`: Markdown text (`.md`).
  package static let markdown: TypeIdentifier = "net.daringfireball.markdown"
  /// `public.comma-separated-values-text`: CSV.
  package static let commaSeparatedText: TypeIdentifier = "public.comma-separated-values-text"
  /// `public.tab-separated-values-text`: TSV.
  package static let tabSeparatedText: TypeIdentifier = "public.tab-separated-values-text"

  // MARK: Images, audio, video, documents

  /// `public.image`: any image.
  package static let image: TypeIdentifier = "public.image"
  /// `public.jpeg`: a JPEG image.
  package static let jpeg: TypeIdentifier = "public.jpeg"
  /// `public.png`: a PNG image.
  package static let png: TypeIdentifier = "public.png"
  /// `public.tiff`: a TIFF image.
  package static let tiff: TypeIdentifier = "public.tiff"
  /// `com.compuserve.gif`: a GIF image.
  package static let gif: TypeIdentifier = "com.compuserve.gif"
  /// `public.heic`: a HEIC image.
  package static let heic: TypeIdentifier = "public.heic"
  /// `public.svg-image`: an SVG image.
  package static let svg: TypeIdentifier = "public.svg-image"
  /// `com.adobe.pdf`: a PDF document.
  package static let pdf: TypeIdentifier = "com.adobe.pdf"
  /// `public.audiovisual-content`: any audio or video.
  package static let audiovisualContent: TypeIdentifier = "public.audiovisual-content"
  /// `public.movie`: any video (with or without sound).
  package static let movie: TypeIdentifier = "public.movie"
  /// `public.audio`: any audio.
  package static let audio: TypeIdentifier = "public.audio"
  /// `public.mpeg-4`: an MPEG-4 movie.
  package static let mpeg4Movie: TypeIdentifier = "public.mpeg-4"
  /// `public.mp3`: MP3 audio.
  package static let mp3: TypeIdentifier = "public.mp3"
  /// `public.font`: any font file.
  package static let font: TypeIdentifier = "public.font"
  /// `public.spreadsheet`: any spreadsheet.
  package static let spreadsheet: TypeIdentifier = "public.spreadsheet"
  /// `public.presentation`: any slide presentation.
  package static let presentation: TypeIdentifier = "public.presentation"

  // MARK: Archives and compression

  /// `public.archive`: any archive or compressed file (its bytes are already packed).
  package static let archive: TypeIdentifier = "public.archive"
  /// `public.zip-archive`: a zip archive (`.zip`).
  package static let zipArchive: TypeIdentifier = "public.zip-archive"
  /// `public.tar-archive`: a tar archive (`.tar`).
  package static let tarArchive: TypeIdentifier = "public.tar-archive"
  /// `org.gnu.gnu-zip-archive`: a gzip-compressed file (`.gz`).
  package static let gzip: TypeIdentifier = "org.gnu.gnu-zip-archive"
  /// `org.gnu.gnu-zip-tar-archive`: a gzip-compressed tar archive (`.tgz`, `.tar.gz`).
  package static let gzipTarArchive: TypeIdentifier = "org.gnu.gnu-zip-tar-archive"
  /// `public.bzip2-archive`: a bzip2-compressed file (`.bz2`).
  package static let bzip2: TypeIdentifier = "public.bzip2-archive"
  /// `public.tar-bzip2-archive`: a bzip2-compressed tar archive (`.tbz2`, `.tar.bz2`).
  package static let bzip2TarArchive: TypeIdentifier = "public.tar-bzip2-archive"
  /// `org.tukaani.xz-archive`: an xz-compressed file (`.xz`).
  package static let xz: TypeIdentifier = "org.tukaani.xz-archive"
  /// `org.tukaani.tar-xz-archive`: an xz-compressed tar archive (`.txz`, `.tar.xz`).
  package static let xzTarArchive: TypeIdentifier = "org.tukaani.tar-xz-archive"
  /// `com.facebook.zstandard-archive`: a Zstandard-compressed file (`.zst`).
  package static let zstandard: TypeIdentifier = "com.facebook.zstandard-archive"
  /// `com.facebook.zstandard-tar-archive`: a Zstandard-compressed tar archive (`.tzst`, `.tar.zst`).
  package static let zstandardTarArchive: TypeIdentifier = "com.facebook.zstandard-tar-archive"
  /// `public.disk-image`: any disk image.
  package static let diskImage: TypeIdentifier = "public.disk-image"
}
