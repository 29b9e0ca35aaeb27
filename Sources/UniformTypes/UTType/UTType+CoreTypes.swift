// The constants of Apple's UTCoreTypes.h, with the names its Swift overlay gives them.
//
// Sources: the macOS 11.3 SDK's UTCoreTypes.h for the 130 original constants, and
// Apple's UTType documentation pages for the later ones (tarArchive, css, makefile,
// geoJSON, heics, jpegxl, dng, exr, ahap, linkPresentationMetadata, markdown). Each
// constant is only a name: what the type conforms to and its tags come from the
// registry (`SystemTypeTable.swift`). One correction to the header: it gives
// `internetShortcut` the identifier of `internetLocation` by mistake; the type is
// `com.microsoft.internet-shortcut` (`.url`).

#if !canImport(UniformTypeIdentifiers)
  extension UTType {
    // MARK: Abstract and concrete base types

    /// A generic base type for most things: files and folders.
    ///
    /// Identifier: `public.item`.
    public static let item = UTType(resolved: "public.item")
    /// A base type for anything containing user-viewable document content.
    ///
    /// Identifier: `public.content`.
    public static let content = UTType(resolved: "public.content")
    /// A base type for content formats that mix embedded content (compound documents).
    ///
    /// Identifier: `public.composite-content`.
    public static let compositeContent = UTType(resolved: "public.composite-content")
    /// A data item mountable as a volume.
    ///
    /// Identifier: `public.disk-image`.
    public static let diskImage = UTType(resolved: "public.disk-image")
    /// A base type for any simple byte stream: files and in-memory data.
    ///
    /// Identifier: `public.data`.
    public static let data = UTType(resolved: "public.data")
    /// A file-system directory: packages and folders.
    ///
    /// Identifier: `public.directory`.
    public static let directory = UTType(resolved: "public.directory")
    /// The type symbolic links and alias files conform to.
    ///
    /// Identifier: `com.apple.resolvable`.
    public static let resolvable = UTType(resolved: "com.apple.resolvable")
    /// A symbolic link.
    ///
    /// Identifier: `public.symlink`.
    public static let symbolicLink = UTType(resolved: "public.symlink")
    /// An executable item.
    ///
    /// Identifier: `public.executable`.
    public static let executable = UTType(resolved: "public.executable")
    /// A volume mount point.
    ///
    /// Identifier: `com.apple.mount-point`.
    public static let mountPoint = UTType(resolved: "com.apple.mount-point")
    /// A fully formed alias file.
    ///
    /// Identifier: `com.apple.alias-file`.
    public static let aliasFile = UTType(resolved: "com.apple.alias-file")
    /// A URL bookmark.
    ///
    /// Identifier: `com.apple.bookmark`.
    public static let urlBookmarkData = UTType(resolved: "com.apple.bookmark")

    // MARK: URLs

    /// Any URL.
    ///
    /// Identifier: `public.url`.
    public static let url = UTType(resolved: "public.url")
    /// A URL with the scheme `file:`.
    ///
    /// Identifier: `public.file-url`.
    public static let fileURL = UTType(resolved: "public.file-url")

    // MARK: Text

    /// The base type for all text-encoded data, including text with markup.
    ///
    /// Identifier: `public.text`.
    public static let text = UTType(resolved: "public.text")
    /// Text with no markup and an unspecified encoding.
    ///
    /// Identifier: `public.plain-text`.
    public static let plainText = UTType(resolved: "public.plain-text")
    /// Plain text encoded as UTF-8.
    ///
    /// Identifier: `public.utf8-plain-text`.
    public static let utf8PlainText = UTType(resolved: "public.utf8-plain-text")
    /// Plain text encoded as UTF-16 with a byte-order mark, or big-endian without one.
    ///
    /// Identifier: `public.utf16-external-plain-text`.
    public static let utf16ExternalPlainText = UTType(resolved: "public.utf16-external-plain-text")
    /// Plain text encoded as UTF-16 in native byte order, with an optional byte-order mark.
    ///
    /// Identifier: `public.utf16-plain-text`.
    public static let utf16PlainText = UTType(resolved: "public.utf16-plain-text")
    /// Text containing delimited values.
    ///
    /// Identifier: `public.delimited-values-text`.
    public static let delimitedText = UTType(resolved: "public.delimited-values-text")
    /// Text containing comma-separated values (`.csv`).
    ///
    /// Identifier: `public.comma-separated-values-text`.
    public static let commaSeparatedText = UTType(resolved: "public.comma-separated-values-text")
    /// Text containing tab-separated values.
    ///
    /// Identifier: `public.tab-separated-values-text`.
    public static let tabSeparatedText = UTType(resolved: "public.tab-separated-values-text")
    /// UTF-8 text containing tab-separated values.
    ///
    /// Identifier: `public.utf8-tab-separated-values-text`.
    public static let utf8TabSeparatedText = UTType(
      resolved: "public.utf8-tab-separated-values-text")
    /// Rich Text Format data.
    ///
    /// Identifier: `public.rtf`.
    public static let rtf = UTType(resolved: "public.rtf")

    // MARK: Markup and serialized data

    /// Any version of HTML.
    ///
    /// Identifier: `public.html`.
    public static let html = UTType(resolved: "public.html")
    /// Generic XML.
    ///
    /// Identifier: `public.xml`.
    public static let xml = UTType(resolved: "public.xml")
    /// YAML.
    ///
    /// Identifier: `public.yaml`.
    public static let yaml = UTType(resolved: "public.yaml")
    /// Cascading Style Sheets.
    ///
    /// Identifier: `public.css`.
    public static let css = UTType(resolved: "public.css")
    /// Markdown text.
    ///
    /// Identifier: `net.daringfireball.markdown`.
    public static let markdown = UTType(resolved: "net.daringfireball.markdown")
    /// JavaScript Object Notation (JSON) data.
    ///
    /// Identifier: `public.json`.
    public static let json = UTType(resolved: "public.json")
    /// GeoJSON data.
    ///
    /// Identifier: `public.geojson`.
    public static let geoJSON = UTType(resolved: "public.geojson")
    /// A property list in any format.
    ///
    /// Identifier: `com.apple.property-list`.
    public static let propertyList = UTType(resolved: "com.apple.property-list")
    /// An XML property list.
    ///
    /// Identifier: `com.apple.xml-property-list`.
    public static let xmlPropertyList = UTType(resolved: "com.apple.xml-property-list")
    /// A binary property list.
    ///
    /// Identifier: `com.apple.binary-property-list`.
    public static let binaryPropertyList = UTType(resolved: "com.apple.binary-property-list")

    // MARK: Source code and scripts

    /// Source code in any language.
    ///
    /// Identifier: `public.source-code`.
    public static let sourceCode = UTType(resolved: "public.source-code")
    /// Assembly language source (`.s`).
    ///
    /// Identifier: `public.assembly-source`.
    public static let assemblyLanguageSource = UTType(resolved: "public.assembly-source")
    /// C source code (`.c`).
    ///
    /// Identifier: `public.c-source`.
    public static let cSource = UTType(resolved: "public.c-source")
    /// Objective-C source code (`.m`).
    ///
    /// Identifier: `public.objective-c-source`.
    public static let objectiveCSource = UTType(resolved: "public.objective-c-source")
    /// Swift source code (`.swift`).
    ///
    /// Identifier: `public.swift-source`.
    public static let swiftSource = UTType(resolved: "public.swift-source")
    /// C++ source code.
    ///
    /// Identifier: `public.c-plus-plus-source`.
    public static let cPlusPlusSource = UTType(resolved: "public.c-plus-plus-source")
    /// Objective-C++ source code.
    ///
    /// Identifier: `public.objective-c-plus-plus-source`.
    public static let objectiveCPlusPlusSource = UTType(
      resolved: "public.objective-c-plus-plus-source")
    /// A C header.
    ///
    /// Identifier: `public.c-header`.
    public static let cHeader = UTType(resolved: "public.c-header")
    /// A C++ header.
    ///
    /// Identifier: `public.c-plus-plus-header`.
    public static let cPlusPlusHeader = UTType(resolved: "public.c-plus-plus-header")
    /// A makefile.
    ///
    /// Identifier: `public.make-source`.
    public static let makefile = UTType(resolved: "public.make-source")
    /// Source of any scripting language.
    ///
    /// Identifier: `public.script`.
    public static let script = UTType(resolved: "public.script")
    /// An AppleScript text script (`.applescript`).
    ///
    /// Identifier: `com.apple.applescript.text`.
    public static let appleScript = UTType(resolved: "com.apple.applescript.text")
    /// An Open Scripting Architecture binary script (`.scpt`).
    ///
    /// Identifier: `com.apple.applescript.script`.
    public static let osaScript = UTType(resolved: "com.apple.applescript.script")
    /// An Open Scripting Architecture script bundle (`.scptd`).
    ///
    /// Identifier: `com.apple.applescript.script-bundle`.
    public static let osaScriptBundle = UTType(resolved: "com.apple.applescript.script-bundle")
    /// JavaScript source code.
    ///
    /// Identifier: `com.netscape.javascript-source`.
    public static let javaScript = UTType(resolved: "com.netscape.javascript-source")
    /// A shell script.
    ///
    /// Identifier: `public.shell-script`.
    public static let shellScript = UTType(resolved: "public.shell-script")
    /// A Perl script.
    ///
    /// Identifier: `public.perl-script`.
    public static let perlScript = UTType(resolved: "public.perl-script")
    /// A Python script.
    ///
    /// Identifier: `public.python-script`.
    public static let pythonScript = UTType(resolved: "public.python-script")
    /// A Ruby script.
    ///
    /// Identifier: `public.ruby-script`.
    public static let rubyScript = UTType(resolved: "public.ruby-script")
    /// A PHP script.
    ///
    /// Identifier: `public.php-script`.
    public static let phpScript = UTType(resolved: "public.php-script")

    // MARK: Composite content

    /// An Adobe PDF document.
    ///
    /// Identifier: `com.adobe.pdf`.
    public static let pdf = UTType(resolved: "com.adobe.pdf")
    /// A Rich Text Format Directory document.
    ///
    /// Identifier: `com.apple.rtfd`.
    public static let rtfd = UTType(resolved: "com.apple.rtfd")
    /// A flattened RTFD document.
    ///
    /// Identifier: `com.apple.flat-rtfd`.
    public static let flatRTFD = UTType(resolved: "com.apple.flat-rtfd")
    /// A WebKit web archive.
    ///
    /// Identifier: `com.apple.webarchive`.
    public static let webArchive = UTType(resolved: "com.apple.webarchive")
    /// An EPUB document.
    ///
    /// Identifier: `org.idpf.epub-container`.
    public static let epub = UTType(resolved: "org.idpf.epub-container")

    // MARK: Images

    /// A base type for image data.
    ///
    /// Identifier: `public.image`.
    public static let image = UTType(resolved: "public.image")
    /// A JPEG image.
    ///
    /// Identifier: `public.jpeg`.
    public static let jpeg = UTType(resolved: "public.jpeg")
    /// A TIFF image.
    ///
    /// Identifier: `public.tiff`.
    public static let tiff = UTType(resolved: "public.tiff")
    /// A GIF image.
    ///
    /// Identifier: `com.compuserve.gif`.
    public static let gif = UTType(resolved: "com.compuserve.gif")
    /// A PNG image.
    ///
    /// Identifier: `public.png`.
    public static let png = UTType(resolved: "public.png")
    /// Apple icon data.
    ///
    /// Identifier: `com.apple.icns`.
    public static let icns = UTType(resolved: "com.apple.icns")
    /// A Windows bitmap.
    ///
    /// Identifier: `com.microsoft.bmp`.
    public static let bmp = UTType(resolved: "com.microsoft.bmp")
    /// Windows icon data.
    ///
    /// Identifier: `com.microsoft.ico`.
    public static let ico = UTType(resolved: "com.microsoft.ico")
    /// A base type for raw camera images.
    ///
    /// Identifier: `public.camera-raw-image`.
    public static let rawImage = UTType(resolved: "public.camera-raw-image")
    /// A Digital Negative (DNG) raw image.
    ///
    /// Identifier: `com.adobe.raw-image`.
    public static let dng = UTType(resolved: "com.adobe.raw-image")
    /// An OpenEXR image.
    ///
    /// Identifier: `com.ilm.openexr-image`.
    public static let exr = UTType(resolved: "com.ilm.openexr-image")
    /// A Scalable Vector Graphics image.
    ///
    /// Identifier: `public.svg-image`.
    public static let svg = UTType(resolved: "public.svg-image")
    /// A Live Photo.
    ///
    /// Identifier: `com.apple.live-photo`.
    public static let livePhoto = UTType(resolved: "com.apple.live-photo")
    /// A High Efficiency Image File Format image.
    ///
    /// Identifier: `public.heif`.
    public static let heif = UTType(resolved: "public.heif")
    /// A High Efficiency Image Coding image.
    ///
    /// Identifier: `public.heic`.
    public static let heic = UTType(resolved: "public.heic")
    /// A High Efficiency Image Coding image sequence.
    ///
    /// Identifier: `public.heics`.
    public static let heics = UTType(resolved: "public.heics")
    /// A WebP image.
    ///
    /// Identifier: `org.webmproject.webp`.
    public static let webP = UTType(resolved: "org.webmproject.webp")
    /// A JPEG XL image.
    ///
    /// Identifier: `public.jpeg-xl`.
    public static let jpegxl = UTType(resolved: "public.jpeg-xl")

    // MARK: 3D content

    /// A base type for 3D content.
    ///
    /// Identifier: `public.3d-content`.
    public static let threeDContent = UTType(resolved: "public.3d-content")
    /// Universal Scene Description content.
    ///
    /// Identifier: `com.pixar.universal-scene-description`.
    public static let usd = UTType(resolved: "com.pixar.universal-scene-description")
    /// A Universal Scene Description package.
    ///
    /// Identifier: `com.pixar.universal-scene-description-mobile`.
    public static let usdz = UTType(resolved: "com.pixar.universal-scene-description-mobile")
    /// A Reality File.
    ///
    /// Identifier: `com.apple.reality`.
    public static let realityFile = UTType(resolved: "com.apple.reality")
    /// A SceneKit serialized scene.
    ///
    /// Identifier: `com.apple.scenekit.scene`.
    public static let sceneKitScene = UTType(resolved: "com.apple.scenekit.scene")
    /// An AR reference object.
    ///
    /// Identifier: `com.apple.arobject`.
    public static let arReferenceObject = UTType(resolved: "com.apple.arobject")

    // MARK: Audio and video

    /// Any audio or video content.
    ///
    /// Identifier: `public.audiovisual-content`.
    public static let audiovisualContent = UTType(resolved: "public.audiovisual-content")
    /// A media format that may contain both video and audio.
    ///
    /// Identifier: `public.movie`.
    public static let movie = UTType(resolved: "public.movie")
    /// Video with no audio.
    ///
    /// Identifier: `public.video`.
    public static let video = UTType(resolved: "public.video")
    /// Audio with no video.
    ///
    /// Identifier: `public.audio`.
    public static let audio = UTType(resolved: "public.audio")
    /// A QuickTime movie.
    ///
    /// Identifier: `com.apple.quicktime-movie`.
    public static let quickTimeMovie = UTType(resolved: "com.apple.quicktime-movie")
    /// An MPEG-1 or MPEG-2 movie.
    ///
    /// Identifier: `public.mpeg`.
    public static let mpeg = UTType(resolved: "public.mpeg")
    /// MPEG-2 video.
    ///
    /// Identifier: `public.mpeg-2-video`.
    public static let mpeg2Video = UTType(resolved: "public.mpeg-2-video")
    /// An MPEG-2 transport stream.
    ///
    /// Identifier: `public.mpeg-2-transport-stream`.
    public static let mpeg2TransportStream = UTType(resolved: "public.mpeg-2-transport-stream")
    /// MP3 audio.
    ///
    /// Identifier: `public.mp3`.
    public static let mp3 = UTType(resolved: "public.mp3")
    /// An MPEG-4 movie.
    ///
    /// Identifier: `public.mpeg-4`.
    public static let mpeg4Movie = UTType(resolved: "public.mpeg-4")
    /// MPEG-4 audio.
    ///
    /// Identifier: `public.mpeg-4-audio`.
    public static let mpeg4Audio = UTType(resolved: "public.mpeg-4-audio")
    /// Apple protected MPEG-4 audio (`.m4p`).
    ///
    /// Identifier: `com.apple.protected-mpeg-4-audio`.
    public static let appleProtectedMPEG4Audio = UTType(
      resolved: "com.apple.protected-mpeg-4-audio")
    /// An Apple protected MPEG-4 movie.
    ///
    /// Identifier: `com.apple.protected-mpeg-4-video`.
    public static let appleProtectedMPEG4Video = UTType(
      resolved: "com.apple.protected-mpeg-4-video")
    /// An AVI movie.
    ///
    /// Identifier: `public.avi`.
    public static let avi = UTType(resolved: "public.avi")
    /// AIFF audio.
    ///
    /// Identifier: `public.aiff-audio`.
    public static let aiff = UTType(resolved: "public.aiff-audio")
    /// Microsoft waveform audio (`.wav`).
    ///
    /// Identifier: `com.microsoft.waveform-audio`.
    public static let wav = UTType(resolved: "com.microsoft.waveform-audio")
    /// MIDI audio.
    ///
    /// Identifier: `public.midi-audio`.
    public static let midi = UTType(resolved: "public.midi-audio")
    /// A base type for playlists.
    ///
    /// Identifier: `public.playlist`.
    public static let playlist = UTType(resolved: "public.playlist")
    /// An M3U or M3U8 playlist.
    ///
    /// Identifier: `public.m3u-playlist`.
    public static let m3uPlaylist = UTType(resolved: "public.m3u-playlist")
    /// An Apple Haptic Audio Pattern.
    ///
    /// Identifier: `com.apple.haptics.ahap`.
    public static let ahap = UTType(resolved: "com.apple.haptics.ahap")

    // MARK: Folders, packages and bundles

    /// A user-browsable folder (not a package).
    ///
    /// Identifier: `public.folder`.
    public static let folder = UTType(resolved: "public.folder")
    /// The root folder of a volume.
    ///
    /// Identifier: `public.volume`.
    public static let volume = UTType(resolved: "public.volume")
    /// A folder shown to the user as one file.
    ///
    /// Identifier: `com.apple.package`.
    public static let package = UTType(resolved: "com.apple.package")
    /// A folder with one of the bundle layouts.
    ///
    /// Identifier: `com.apple.bundle`.
    public static let bundle = UTType(resolved: "com.apple.bundle")
    /// A base type for bundle-based plug-ins.
    ///
    /// Identifier: `com.apple.plugin`.
    public static let pluginBundle = UTType(resolved: "com.apple.plugin")
    /// A Spotlight metadata importer bundle.
    ///
    /// Identifier: `com.apple.metadata-importer`.
    public static let spotlightImporter = UTType(resolved: "com.apple.metadata-importer")
    /// A Quick Look preview generator bundle.
    ///
    /// Identifier: `com.apple.quicklook-generator`.
    public static let quickLookGenerator = UTType(resolved: "com.apple.quicklook-generator")
    /// An XPC service bundle.
    ///
    /// Identifier: `com.apple.xpc-service`.
    public static let xpcService = UTType(resolved: "com.apple.xpc-service")
    /// A framework bundle.
    ///
    /// Identifier: `com.apple.framework`.
    public static let framework = UTType(resolved: "com.apple.framework")

    // MARK: Applications and executables

    /// A base type for applications.
    ///
    /// Identifier: `com.apple.application`.
    public static let application = UTType(resolved: "com.apple.application")
    /// A bundled application.
    ///
    /// Identifier: `com.apple.application-bundle`.
    public static let applicationBundle = UTType(resolved: "com.apple.application-bundle")
    /// An application extension (`.appex`).
    ///
    /// Identifier: `com.apple.application-and-system-extension`.
    public static let applicationExtension = UTType(
      resolved: "com.apple.application-and-system-extension")
    /// A UNIX executable (a flat file).
    ///
    /// Identifier: `public.unix-executable`.
    public static let unixExecutable = UTType(resolved: "public.unix-executable")
    /// A Windows executable (`.exe`).
    ///
    /// Identifier: `com.microsoft.windows-executable`.
    public static let exe = UTType(resolved: "com.microsoft.windows-executable")
    /// A System Settings pane.
    ///
    /// Identifier: `com.apple.systempreference.prefpane`.
    public static let systemPreferencesPane = UTType(
      resolved: "com.apple.systempreference.prefpane")

    // MARK: Archives and compression

    /// An archive of files and folders.
    ///
    /// Identifier: `public.archive`.
    public static let archive = UTType(resolved: "public.archive")
    /// A GNU zip archive.
    ///
    /// Identifier: `org.gnu.gnu-zip-archive`.
    public static let gzip = UTType(resolved: "org.gnu.gnu-zip-archive")
    /// A bzip2 archive.
    ///
    /// Identifier: `public.bzip2-archive`.
    public static let bz2 = UTType(resolved: "public.bzip2-archive")
    /// A zip archive.
    ///
    /// Identifier: `public.zip-archive`.
    public static let zip = UTType(resolved: "public.zip-archive")
    /// An Apple Archive.
    ///
    /// Identifier: `com.apple.archive`.
    public static let appleArchive = UTType(resolved: "com.apple.archive")
    /// A tar archive.
    ///
    /// Identifier: `public.tar-archive`.
    public static let tarArchive = UTType(resolved: "public.tar-archive")

    // MARK: Documents

    /// A base type for spreadsheet documents.
    ///
    /// Identifier: `public.spreadsheet`.
    public static let spreadsheet = UTType(resolved: "public.spreadsheet")
    /// A base type for presentation documents.
    ///
    /// Identifier: `public.presentation`.
    public static let presentation = UTType(resolved: "public.presentation")
    /// A database store.
    ///
    /// Identifier: `public.database`.
    public static let database = UTType(resolved: "public.database")

    // MARK: Messages, contacts and calendars

    /// A base type for messages (email, instant messages).
    ///
    /// Identifier: `public.message`.
    public static let message = UTType(resolved: "public.message")
    /// Contact information for a person, group or organization.
    ///
    /// Identifier: `public.contact`.
    public static let contact = UTType(resolved: "public.contact")
    /// A vCard file.
    ///
    /// Identifier: `public.vcard`.
    public static let vCard = UTType(resolved: "public.vcard")
    /// A to-do item.
    ///
    /// Identifier: `public.to-do-item`.
    public static let toDoItem = UTType(resolved: "public.to-do-item")
    /// A calendar event.
    ///
    /// Identifier: `public.calendar-event`.
    public static let calendarEvent = UTType(resolved: "public.calendar-event")
    /// An email message.
    ///
    /// Identifier: `public.email-message`.
    public static let emailMessage = UTType(resolved: "public.email-message")

    // MARK: Internet locations

    /// A base type for Apple internet location files.
    ///
    /// Identifier: `com.apple.internet-location`.
    public static let internetLocation = UTType(resolved: "com.apple.internet-location")
    /// A Microsoft internet shortcut (`.url`).
    ///
    /// Identifier: `com.microsoft.internet-shortcut`.
    public static let internetShortcut = UTType(resolved: "com.microsoft.internet-shortcut")

    // MARK: Miscellaneous

    /// A base type for fonts.
    ///
    /// Identifier: `public.font`.
    public static let font = UTType(resolved: "public.font")
    /// A bookmark.
    ///
    /// Identifier: `public.bookmark`.
    public static let bookmark = UTType(resolved: "public.bookmark")
    /// PKCS #12 data.
    ///
    /// Identifier: `com.rsa.pkcs-12`.
    public static let pkcs12 = UTType(resolved: "com.rsa.pkcs-12")
    /// An X.509 certificate.
    ///
    /// Identifier: `public.x509-certificate`.
    public static let x509Certificate = UTType(resolved: "public.x509-certificate")
    /// A base type for console logs.
    ///
    /// Identifier: `public.log`.
    public static let log = UTType(resolved: "public.log")
    /// Link Presentation metadata.
    ///
    /// Identifier: `com.apple.linkpresentation.metadata`.
    public static let linkPresentationMetadata = UTType(
      resolved: "com.apple.linkpresentation.metadata")
  }
#endif
