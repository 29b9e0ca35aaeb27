import FolioSystem
import Glibc
import Testing

@Suite struct UnwrittenDataTests {
  @Test func dirtyAndWritebackAreAddedInBytes() {
    let text = """
      MemTotal:       24684264 kB
      Dirty:              1536 kB
      Writeback:            64 kB
      WritebackTmp:        999 kB
      AnonPages:        523456 kB
      """
    let expected: Int64 = (1536 + 64) * 1024
    let bytes = UnwrittenData.bytes(inMeminfo: Array(text.utf8))
    #expect(bytes == expected)
  }

  @Test func withoutEitherCounterTheAmountIsUnknown() {
    #expect(UnwrittenData.bytes(inMeminfo: Array("MemTotal: 1 kB\nDirtyish: 5 kB\n".utf8)) == nil)
  }

  @Test func theMachinesOwnCountersAreRead() {
    let bytes = UnwrittenData.bytes()
    #expect(bytes != nil)
    #expect((bytes ?? -1) >= 0)
  }

  @Test func aFileSystemIsFlushedThroughAnyDescriptorOnIt() {
    #expect(LinuxCalls.canSyncFileSystem)
    let descriptor = open("/tmp", O_RDONLY | O_DIRECTORY)
    defer { close(descriptor) }
    #expect(LinuxCalls.syncFileSystem(descriptor) == 0)
    #expect(LinuxCalls.syncFileSystem(-1) == -1)
    #expect(errno == EBADF)
  }
}
