extension ManPage {
  /// Property lists, validation, types and export.
  static let typeReference: [String: String] = [
    "folio plist lint": #"""
    An error names the file and its line and column (a binary property list's, its byte
    offset: FILE@OFFSET), for example "Info.plist:14:7: error: <key> 'UTTypeIdentifier'
    has no value". Old-style OpenStep property lists ('{ key = value; }', '( a, b )',
    '<0fbd>', comments, Localizable.strings) are read as Foundation and plutil read
    them, with a line and column on every value; like plutil, Folio does not write
    them. XML is parsed safely: no network, no DTD, no entity expansion (a document
    declaring an entity is refused), at most 128 levels of nesting. The size limit is
    checked before a file is read, and standard input is read only up to it, so it
    bounds memory too. Repeated keys are warned about one by one for the first 100 of
    a document, then counted.
    $ folio plist lint -s *.plist
    """#,

    "folio plist convert": #"""
    XML is written in Apple's layout (tabs, the DOCTYPE, keys in stored order), with
    whole-second dates as Apple writes them; JSON compact, as 'plutil -convert json'
    writes it. --max-input-size and --max-values apply as in 'plist lint'.
    $ folio plist convert --to binary Info.plist
    $ folio plist convert --to json -o - Info.plist
    """#,

    "folio validate": #"""
    A folder is searched without following symbolic links, skipping .build, build,
    DerivedData, Pods, Carthage, node_modules, vendor, xcuserdata, .swiftpm, .gradle and
    version-control folders; files found are reported as DIR/relative/path. Every
    documented key is decoded and unknown keys are kept. Text from the files is shown
    escaped in every format (\n, \u{200B}), so a crafted property list can neither
    forge a diagnostic line nor hide a character. SARIF output is version 2.1.0, with
    each rule's helpUri pointing at its page and an invocation carrying the exit code.

    - Build variables: Xcode's $(NAME) and ${NAME} (with :rfc1034identifier,
    :c99extidentifier, :lower, :upper and :default=VALUE) and CMake's @NAME@ take the
    values of -D NAME=VALUE. Where Folio checks the value (identifiers, parents, tags,
    roles, ranks), one left unresolved is an unresolved-variable warning naming the -D
    that resolves it; elsewhere (NSDocumentClass, CFBundleTypeName) it is not reported,
    as Xcode fills it in.
    - Templates: a file with C preprocessor directives (Xcode's INFOPLIST_PREPROCESS) or
    m4 macros is reported once as a build-template warning. --preprocess runs the
    conditionals (#if with integer expressions and defined, #ifdef, #ifndef, #elif,
    #else, #endif) and object-like macros (-D and #define, replaced outside double
    quotes), and validates the result at the template's own lines; #include,
    function-like macros and #error are refused naming the line.
    - Rules: every rule has a stable code, a usual severity and a page with a bad and a
    good example (docs/rules/ in the source). --disable, --warning and --error change
    them; an unknown rule is a usage error with a suggestion. The property-list
    reader's own findings have codes and pages too (FOLIO-PLIST-DUPLICATE-KEY,
    FOLIO-PLIST-NONEXISTENT-DATE, FOLIO-PLIST-KEY-OUTSIDE-DICT).
    - Configuration: the first .folio.yml, .folio.yaml or .folio.json found in the
    working folder or above it applies first, then the options. Its keys: disable,
    warning and error (lists of rule codes), define (a mapping of build variables),
    baseline (a path relative to the file), exclude (folders a walk skips: a name
    anywhere, or a path relative to the file), strict, schema and preprocess (true or
    false). The YAML is a small strict subset: 'key: value' lines whose values are
    plain, single- or double-quoted scalars, one-line '[a, b]' lists, or, after 'key:'
    alone, an indented block of '- item' lines or of 'NAME: value' lines; '#' comments.
    Anchors, tags, block scalars, flow mappings, tabs, deeper nesting, repeated keys,
    yes, no and null are refused with their line and column, and so are unknown keys.
    - Baselines: --write-baseline FILE records every finding (file, rule, and the
    message with its line numbers blurred, so an edit above it does not make it new) and
    exits 0; --baseline FILE (or baseline:) leaves those findings out, and the summary
    counts them. Run it from the same folder.
    - --schema: the RELAX NG pass (Schemas/plist.rng, the shape of Apple's DTD, then
    Schemas/type-declarations.rng; libxml2, no network) reports only what no rule
    reports: a problem both see is reported once, by the rule, at the value's line.
    - Other apps' types: identifiers a document type lists beside its own that other
    apps declare are foreign-content-type notes. Only a document type none of whose
    identifiers is known, or an identifier one or two edits from one of the app's own
    types, is an undeclared-content-type error. An identifier in public. or com.apple.
    that no Apple system declares is an unknown-system-type warning whose hint names
    the system's type for the extension it spells; dyn. identifiers listed on purpose
    are notes saying which extension or MIME type they stand for.
    $ folio validate .
    $ folio validate --strict --schema App/Info.plist
    $ folio validate -D PRODUCT_BUNDLE_IDENTIFIER=com.example.app Info.plist
    $ folio validate --write-baseline folio-baseline.json .
    $ folio validate --baseline folio-baseline.json .
    $ folio validate --format sarif Info.plist > folio.sarif
    """#,

    "folio types list": #"""
    $ folio types list --conforming-to public.archive
    """#,

    "folio types show": #"""
    The output also says where the type was declared, its tags (and the desktop
    database's globs with their weights), its preferred extension and MIME type.
    $ folio types show md
    """#,

    "folio types conforms": #"""
    $ folio types conforms public.utf8-plain-text public.data && echo yes
    """#,

    "folio types identify": #"""
    Globs are matched as the shared-mime-info specification matches them: a literal name
    such as Makefile first, then the highest weight, then the longest pattern, with the
    database's case rules (main.C is C++, main.c C). The first bytes read reach as far
    as the database's rules do (4 KiB without it, at most 64 KiB); magic rules apply
    highest priority first, then the root-XML rules, else text is told from binary (a
    leading '{' or '[': JSON). An unknown extension's dyn. identifier is Apple's
    encoding ('.md' with no declaration is dyn.ah62d4rv4ge8043a). With --content,
    text-or-binary never overrides a name. --format json prints one array with an
    object per PATH: path, identifier, mimeTypes (preferred first), by (name, content,
    both, or kind for folders, links and devices), candidates with --all, and error
    for a PATH that does not exist. 'folio export' uses the same rules.
    $ folio types identify Notebook.examplenotebook notes.txt backup.tar.gz
    $ folio types identify --content --all --format json download
    """#,

    "folio export": #"""
    - Exporters: package or folder to zip, tar, tar.gz, tar.bz2, tar.xz or tar.zst (as
    'folio pack'); those archives to a folder or package (as 'folio expand', with all
    its rules); property list to XML, binary or JSON property list, and JSON to XML or
    binary (as 'plist convert'); plain text to UTF-8, UTF-16 with a byte-order mark
    (little-endian public.utf16-plain-text, big-endian
    public.utf16-external-plain-text) or Latin-1 (org.iso.latin-1-plain-text,
    text/plain;charset=iso-8859-1), where a conversion that would lose a character is
    refused naming it and its FILE:LINE:COLUMN; notebook to plain text, Markdown, HTML
    (one self-contained, escaped page) or JSON (title, page order, the metadata's other
    keys under otherMetadata, pages); plain text to notebook.
    - An exporter serves every type conforming to its source type (the package packer
    packs a notebook). The most specific exporter wins; without a direct one, exporters
    are chained, up to 4 steps. --list prints every type INPUT can become, with the
    default output name and the route.
    - A notebook as plain text: the title on the first line, then each page after a
    form feed on a line of its own, each page followed by one newline; reading it back
    (--to examplenotebook) splits at the form feeds and keeps every page's text
    exactly. Text without form feeds is split at blank lines and titled after the file.
    A page listed in pageOrder but missing from pages/ is an error naming it; a page
    file not listed is a warning, and is appended.
    - OUT's default is INPUT's base name plus the target's preferred extension, in the
    current folder (Notebook.txt; a package's archive keeps the whole name,
    Notebook.examplenotebook.zip; a name equal to the input's gets a suffix,
    Info-binary.plist); from standard input without -o, the result goes to standard
    output. Every step writes into a hidden work folder beside OUT. INPUT itself is
    never replaced.
    - A package INPUT is locked (shared) while it is read, as by 'folio pack', so a
    concurrent 'folio expand --update' into it waits.
    $ folio export Notebook.examplenotebook --to md --declarations Info.plist
    $ folio export Notebook.examplenotebook.zip --to txt --explain --declarations Info.plist
    $ folio export --list Info.plist
    $ printf 'one\n\ntwo\n' | folio export - --to html -o -
    """#,
  ]

  /// Where types come from, which every command that names a type shares.
  static let typeSections: [(title: String, text: String)] = [
    (
      "TYPE REGISTRY",
      #"""
      Types come from the system table, then --declarations files, then every *.plist in
      the folders of FOLIO_TYPES_PATH and in $XDG_DATA_HOME/folio/types. When two files
      declare one type, an exported declaration beats an imported one, otherwise the
      first file loaded wins and the later one is reported as a warning. A TYPE argument
      is an identifier (public.zip-archive), an extension (zip) or a MIME type
      (text/html).

      System types are compiled in (890 of them): every type macOS declares, with its
      parents, extensions and MIME types, from Sources/UniformTypes/Registry/system-types.tsv
      in the source. Where Apple declares nothing for a format Folio handles, Folio uses
      the identifier of the format owner's domain (com.facebook.zstandard-archive for
      .zst, com.facebook.zstandard-tar-archive for .tzst and .tar.zst,
      org.webassembly.wasm, org.sqlite.sqlite3), and it adds .tar.gz, .tar.bz2 and
      .tar.xz to Apple's org.gnu.gnu-zip-tar-archive, public.tar-bzip2-archive and
      org.tukaani.tar-xz-archive. When several types claim a tag, declared types come
      first (exported, then imported, in load order), then system types as Apple ranks
      them: the declaring type over importers, public. types over others, data over
      packages (pages is the single-file Pages document; a folder named .pages is the
      package), and a few choices the table names (plist is com.apple.property-list).

      The Linux desktop's types: 'types' and 'export' also read the shared MIME
      database's source files (packages/*.xml, not the compiled caches) in
      $XDG_DATA_DIRS/mime and $XDG_DATA_HOME/mime, the user's last so it wins, as the
      specification orders them (glob-deleteall, magic-deleteall and Override.xml
      included). A MIME type a system type declares, or that the system table maps (as
      text/x-csrc to public.c-source), is that type, with both databases' tags; any
      other becomes org.freedesktop.mime.TYPE.SUBTYPE (lower case, '+' written '-plus-',
      other characters an identifier cannot hold '-': org.freedesktop.mime.video.x-matroska),
      conforming to its sub-class-of types, to its media type's category (image/ to
      public.image, video/ to public.movie...) and, by the specification's implicit
      rules, to public.plain-text or public.data. Its description is the comment in the
      user's language, with its acronym and generic icon beside it. A broken or hostile
      database (malformed XML, an entity, a sub-class-of cycle, too many globs or too
      deep matches) is reported on standard error as 'FILE:LINE: error: ... [mime-...]'
      and what is wrong is left out; without the database folio still knows every
      system type and tells its own formats by their first bytes. 'folio validate' does
      not read it, so its results do not depend on the machine.

      What was read of the database is kept in $XDG_CACHE_HOME/folio (made with mode
      0700): one file per set of source files, languages and limits, used only while
      every source file keeps the device, inode, size and modification and change times
      it was read with, and set aside whole (the XML read again, the cache rewritten)
      when it is damaged, truncated or from another version. Changing LANG adds a file.
      """#
    )
  ]
}
