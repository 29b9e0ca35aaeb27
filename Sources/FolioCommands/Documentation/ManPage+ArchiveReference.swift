extension ManPage {
  /// What the page says beyond `--help`, keyed by command (`folio pack`; `folio` adds to
  /// the description), in a discussion's plain text (see `paragraphs(_:)`).
  static var reference: [String: String] {
    archiveReference.merging(typeReference) { first, second in first + "\n\n" + second }
  }

  /// Sections of their own after the commands, in order.
  static var sections: [(title: String, text: String)] { archiveSections + typeSections }

  /// The conventions and the archive commands.
  private static let archiveReference: [String: String] = [
    "folio": #"""
    Data goes to standard output, diagnostics to standard error. A mistyped subcommand,
    option or value gets the closest valid ones ('folio pakc': did you mean 'pack'?).
    Every command that writes a file replaces an existing one only with --force;
    pack and expand also take --update, never together with --force. A replaced output
    keeps its mode, as cp onto an existing file does (a 0600 archive stays 0600); a new
    one gets 0666 less the umask.
    Every output is written to a temporary '.NAME.folio-KIND-PID-RANDOM' beside it,
    flushed and renamed into place, and the next write to NAME removes what a killed
    run left there.
    """#,

    "folio pack": #"""
    The format comes from --format, else from OUT's extension (a format's own, tgz,
    txz, tzst and the other short forms included, whatever a declaration claims; else
    the extension of a declared type conforming to one of the formats), else zip. OUT
    '-' is refused: archives are written to files. Two names that differ only by case
    or Unicode normalisation are packed with a warning, since macOS and Windows keep
    only one of them.

    - Extended attributes cost one llistxattr call a file; a file without any costs
    nothing more, and a file with more than 256 is refused. tar: every attribute as a
    pax SCHILY.xattr.NAME record (and LIBARCHIVE.xattr.NAME, base64), ACLs as
    SCHILY.acl.access and SCHILY.acl.default text with numeric ids, which
    'tar --xattrs --xattrs-include=* --acls' and 'bsdtar --xattrs --acls' restore.
    zip: the user.* attributes as macOS writes them, an AppleDouble entry
    '__MACOSX/DIR/._NAME' right after 'DIR/NAME' (AppleDouble version 2: the Finder info
    with its attribute block, and the resource fork), which Archive Utility and
    'ditto -x -k' restore.
    - Names across systems: macOS names have no namespace. On Linux a macOS name is
    'user.' + the name (com.apple.metadata:_kMDItemUserTags is
    user.com.apple.metadata:_kMDItemUserTags), the Finder info
    user.com.apple.FinderInfo, the resource fork user.com.apple.ResourceFork; going
    back to macOS takes 'user.' off again, so Mac to Linux to Mac keeps every name. A
    tar's names without a Linux namespace (a macOS tar's) get 'user.' too.
    - --update: a tar OUT is refused (a usage error), since tar entries are not
    compressed one by one; an OUT that is not a sound zip is refused and left as it
    was. With --checksum every file is read but none of the unchanged is compressed.
    Without --checksum, a change that keeps a file's size, time and mode is not seen:
    'folio verify OUT --against PACKAGE' finds it. The tree is walked while the
    entries are written, so the progress has no total files or bytes until the walk
    ends.
    - --jobs (default: FOLIO_JOBS, else the cores the process may use, as taskset or
    a container allows): zip entries are read and deflated by N threads, a large file
    in 128 KiB chunks joined into one deflate stream, written in order. Memory: about
    (2N + 1) x 290 KiB of buffers, and 1 MiB a thread for its compressors. tar.gz is
    compressed block-parallel into one gzip member (as pigz); tar.zst and tar.xz by
    their encoders' worker threads (a reproducible tar.xz uses one, since liblzma's
    threaded encoder cuts other blocks). tar.zst is one frame with zstd's checksum,
    compressed in 512 KiB jobs. With several jobs, tar's small files (up to 256 KiB)
    are read ahead by N threads while the entries before them are written.
    - Zip is written by Folio itself: local headers carry the real sizes and CRC-32
    (no data descriptors), ZIP64 fields appear only where a size or offset needs them,
    Unix modes and symbolic links go in the external attributes, times in an
    extended-timestamp field (UTC) and in the DOS fields, computed in UTC. A name that
    is not ASCII carries the UTF-8 flag.
    - The archive's disk writing starts every 4 MiB as it grows (sync_file_range), so
    the flush at the end waits for the last few MiB only.
    - --reproducible: no gzip timestamp and no owner names either, and the same bytes
    in every time zone and for every --jobs.
    - PACKAGE's lock: another process's wait is announced, and given up after
    --lock-timeout.
    - Progress on a terminal is one line (files, bytes, throughput, time left, the
    current file) fitted to the terminal's width and redrawn when it is resized: the
    path is shortened in the middle, then the rate and the time left are dropped, so
    the line never wraps. --progress json is for programs: see PROGRESS AS JSON.
    $ folio pack Notebook.examplenotebook -o Notebook.zip
    $ folio pack Notebook.examplenotebook --format tar.zst --reproducible
    $ folio pack Notebook.examplenotebook -o Notebook.zip --update
    """#,

    "folio expand": #"""
    Zip is read by Folio itself, through its central directory; every other format
    libarchive reads (tar plain or under any number of gzip, bzip2, xz, zstd, lz4, lzip
    or compress layers, cpio, an RPM package's payload, 7-Zip, ISO 9660, xar, RAR...) is
    found from the content, not the name. DEST defaults to the archive's name without
    its archive extension (Notebook.examplenotebook.zip gives Notebook.examplenotebook).
    PATH arguments name entries as 'folio list' prints them or inside the top folder
    (pages/a.txt); a PATH the archive does not hold is an error (entry-not-found) and
    nothing is written. Entries left out by PATH, --include or --exclude are still
    read, so their checksums count, but not written. --update takes no selection: it
    would remove what was left out.

    Every refusal names the entry (control characters escaped, long names shortened)
    and ends with the rule's stable code in brackets
    ("error: entry '../x' has a '..' component [parent-component]"); one that an option
    can lift names the option. docs/RELIABILITY.md in the source lists every rule with
    the attack it closes, and every limit.

    - Names: absolute-path (a leading '/' or a drive letter), parent-component,
    nul-in-name (also a NUL inside a tar's pax or GNU long name, which libarchive would
    cut short), backslash-in-name, empty-name, invalid-name-encoding, name-too-long
    (1,024 bytes, 255 a component; link targets 4,096), duplicate-entry, name-collision.
    - Links: link-outside-destination (an absolute target, or one leaving DEST;
    symbolic links resolved from their own folder through every other link in the
    archive, hard links from the root), write-through-symlink, hard-link-target-missing
    (a hard link to anything but an earlier file); devices, FIFOs and sockets are
    special-file-entry; encrypted entries are encrypted-entry.
    - Limits, so a bomb stops early: --max-bytes (16G, declared and actual bytes),
    --max-entries (1,000,000), --max-ratio (1,000: bytes written against compressed
    bytes consumed, per entry and over the whole archive, for every format; an
    archive's distinct bytes count, so an ISO whose files share an extent cannot pass
    it by reading one stretch many times).
    - One zip reader, driven by the central directory it checked. The end record, the
    ZIP64 locator and record, and the directory must agree (a decoy end record in a
    comment, an entry count too low, a locator pointing elsewhere: malformed-zip);
    every local header must match its record (header-mismatch); entries are read at
    the offsets checked, so local entries no record names are never read, and no entry
    may share compressed bytes with another (overlapping-entries, the non-recursive zip
    bomb). All of it, and every name, total and ratio, is judged before anything is
    written. Bytes the peers read past are read past with a warning naming them: a
    self-extractor's stub (offsets adjusted by 'zip -A' or not), bytes after the end
    record (zip-trailing-data), a comment the file cuts short (zip-comment-cut-short),
    1 to 3 bytes of padding after the last extra field (zip-extra-field-padding).
    - Zip methods: stored, deflate (entries up to 64 KiB inflated whole by libdeflate,
    larger ones streamed through zlib), bzip2, LZMA, xz and Zstandard. Deflate64, PPMd
    and older methods are refused by name, saying which tools read them
    (unsupported-compression). An entry never yields more than its declared size, and
    its CRC-32 is checked.
    - Compression is peeled one layer at a time, each with its own checks: a gzip
    stream may hold several members (cat a.gz b.gz, bgzip, pigz), each member's CRC-32
    and length checked.
    - Damaged archives fail naming the entry (corrupt-archive): a bad CRC, short data,
    broken compression, a bad tar header checksum, a gzip member whose CRC-32 or length
    does not match (libarchive does not check it; Folio reads every compressed stream
    to its end). A 0-byte file or an archive without entries is empty-archive.
    - Standard input ('-', with -o DEST): a tar streams, and nothing after its
    end-of-archive blocks is read; inside a compression at most 1 MiB more is decoded
    to reach the compression's end and checksum. Every decoded byte counts against
    --max-bytes and --max-ratio. A zip or 7-Zip archive on a pipe or inside a
    compression is first copied to an unnamed temporary file, within --max-input-size.
    Other formats that need seeking (ISO 9660) cannot be read from a pipe or inside a
    compression.
    - Kept: permission bits, modification times (folders after their contents),
    symbolic links, empty folders. DEST itself always keeps read, write and search for
    its owner, whatever mode the archive's top folder carries.
    - Extended attributes: an AppleDouble entry ('__MACOSX/DIR/._NAME' in a zip, or
    'DIR/._NAME') is read within bounds (16 MiB an entry, 64 MiB in all, its counts and
    offsets checked) and its attributes set on DIR/NAME; a malformed one, or one
    describing nothing, is skipped with a warning. security.* (file capabilities,
    SELinux labels), trusted.* and other system.* attributes are skipped even for root,
    with one warning counting them; past 64 KiB a value or 256 an entry, a warning. A
    refused attribute (vfat, tmpfs without user_xattr, a value too large for ext4) is
    the warning extended-attribute-not-set.
    - Atomic: the tree is written into '.DEST.folio-expand-PID-RANDOM' beside DEST with
    Folio's own descriptors (O_NOFOLLOW, O_EXCL), flushed, then renamed into place; on
    any failure or Ctrl-C nothing appears and an existing DEST is untouched. --force
    swaps the new tree in (renameat2 RENAME_EXCHANGE) and removes the old one. --update
    does the same but keeps every file whose bytes and attributes did not change (same
    inode, same time) and drops the files the archive no longer has, printing
    'removed PATH' for each; it never follows a symbolic link it finds inside DEST. A
    DEST that is itself a symbolic link is resolved once: the folder it points to is
    replaced and the link stays. DEST is never the archive or a folder holding it
    (archive-inside-destination).
    - Durable unless --no-sync: everything written is on disk before the move, then the
    folders the move changed. When the machine holds little other unwritten data (at
    most 64 MiB, from /proc/meminfo), the file system is flushed once (syncfs);
    otherwise each file is flushed (fdatasync), 32 at a time, then each folder. A large
    file's disk writing starts every 4 MiB while it is written.
    - --jobs: once a zip's central directory has passed every check, its files are
    read, checked and written by N threads in batches, while folders are made and names
    judged in archive order and links made last. A tar (or any format libarchive
    decodes) is decoded in order and written by a thread of its own. The tree, the
    progress order and the error a bad archive gives (its first bad entry's) are the
    same whatever N is; --jobs 1 starts no thread. Memory: about 200 KiB of readers a
    thread for a zip, 1 MiB of queued data for a tar, and a few hundred bytes a name.
    - DEST's lock is keyed by the resolved path, so every spelling of a package shares
    one; another folio waiting on it prints 'waiting for exclusive lock on ...' and
    gives up after --lock-timeout.
    $ folio expand Notebook.zip -o Restored.examplenotebook
    $ folio expand Notebook.zip pages/a.txt -o Pages
    $ curl -sL https://example.com/doc.tar.gz | folio expand - -o Doc
    """#,

    "folio list": #"""
    Lines read like 'bsdtar -tv': mode, owner, group, size, date in UTC, name, and
    '-> target' for links. A date past year 9999 shows its year; one no calendar can
    show, its raw seconds (@4611686018427387904). The readers are expand's: a zip
    through its checked central directory, standard input as 'expand -' reads it, and
    what expand reads past with a warning gives the same 'folio: warning: ... [code]'
    lines on standard error, after the listing. --xattrs lines read
    'user.test="hello"', '0x00ff' for other bytes, and
    'system.posix_acl_access=user::rw-,user:1234:r--,group::r--,mask::rw-,other::---'.
    $ folio list Notebook.zip --include 'pages/*.txt'
    """#,

    "folio verify": #"""
    On success it prints 'verified 7 files and 2 other entries (1.4 KiB) in ARCHIVE (ZIP)'.
    The codes are expand's (corrupt-archive, malformed-zip, header-mismatch...).
    $ folio verify Notebook.zip
    $ folio verify Notebook.zip --against Notebook.examplenotebook
    """#,
  ]

  /// Selection and the progress protocol, which several commands share.
  private static let archiveSections: [(title: String, text: String)] = [
    (
      "SELECTING ENTRIES",
      #"""
      --include GLOB and --exclude GLOB (list, expand; pack takes --exclude) may repeat.
      An entry is taken when no exclusion matches it and, if inclusions or PATHs are
      given, one of them does. Patterns name paths inside the package: for pack the path
      below PACKAGE, for list and expand the entry name as written and also below its top
      folder ('pages/*.txt' matches Notebook.examplenotebook/pages/a.txt).

      The rules are those of .gitignore and bsdtar: '*' matches within one path
      component, '?' one character, '[a-z]' and '[!a-z]' a class, '\' quotes the next
      character, '**' as a whole component any number of components ('pages/**/*.txt',
      '**/cache'). A pattern without '/' matches a name at any depth ('*.tmp',
      '.DS_Store'); one with '/' is anchored at the top; a pattern matching a folder
      takes everything in it ('--exclude attachments'). A malformed pattern is a usage
      error.
      """#
    ),
    (
      "PROGRESS AS JSON",
      #"""
      --progress json (pack, expand, export) turns standard error into a protocol for
      other programs, described by Schemas/progress-events.schema.json (JSON Schema
      2020-12): one JSON object per line and nothing else on that stream. The first
      event is 'start' with the protocol's version (1; fields are only ever added), then
      'file-started', 'bytes' (at most four a second: completed and total files and
      bytes, rate, elapsed and remaining seconds, and 'extendedAttributes', the
      attributes and ACLs stored or set so far; an unknown total is null, never 0) and
      'file-finished'. 'warning' and 'lock-wait' replace the lines a person would see; a
      failure is an 'error' event with the stable code and the message; the last event
      is 'done' with status 'ok', 'failed' or 'cancelled'. In a batch export every event
      of one input carries it as 'input', each input ends with 'input-finished' ('ok'
      with its output, or 'failed'), and 'done' says 'failed' (with 'failedInputs') when
      any input failed.
      $ folio pack Notebook.examplenotebook --progress json 2>&1 >/dev/null | jq -c .
      """#
    ),
  ]
}
