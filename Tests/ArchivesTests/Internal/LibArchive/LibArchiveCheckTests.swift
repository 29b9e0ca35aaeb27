import Testing

@testable import Archives

/// libarchive's status codes, as `archive.h` defines them.
private enum Status {
  static let eof: Int32 = 1
  static let ok: Int32 = 0
  static let retry: Int32 = -10
  static let warn: Int32 = -20
  static let failed: Int32 = -25
  static let fatal: Int32 = -30
}

@Suite struct LibArchiveCheckTests {
  @Test func okAndEndOfArchivePass() throws {
    #expect(try LibArchive.check(Status.ok, nil, "reading") == Status.ok)
    #expect(try LibArchive.check(Status.eof, nil, "reading") == Status.eof)
  }

  @Test func warningIsAnErrorUnlessLogged() throws {
    do {
      try LibArchive.check(Status.warn, nil, "writing header for 'a/b.txt'")
      Issue.record("a warning passed silently")
    } catch let error as PackagingError {
      #expect(error.code == .archiveWarning)
      #expect(error.message.contains("'a/b.txt'"))
    }
    let log = ArchiveWarningLog()
    #expect(try LibArchive.check(Status.warn, nil, "reading 'x'", warnings: log) == Status.warn)
    #expect(log.diagnostics.count == 1)
    #expect(log.diagnostics.first?.severity == .warning)
    #expect(log.diagnostics.first?.message.contains("'x'") == true)
  }

  @Test func failuresThrowWithTheirKind() {
    for (status, code) in [
      (Status.retry, PackagingError.Code.archiveFailed), (Status.failed, .archiveFailed),
      (Status.fatal, .archiveFatal),
    ] {
      #expect {
        try LibArchive.check(status, nil, "reading 'e'")
      } throws: { error in
        (error as? PackagingError)?.code == code
          && (error as? PackagingError)?.message.contains("'e'") == true
      }
    }
  }

  @Test func negativeCountsAreChecked() throws {
    #expect(try LibArchive.checkCount(4096, nil, "writing") == 4096)
    #expect(throws: PackagingError.self) { try LibArchive.checkCount(-30, nil, "writing") }
  }
}
