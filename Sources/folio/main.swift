import Dispatch
import FolioCommands
import FolioSystem
import Glibc

// Large blocks in pages of their own from start to end (see fixMallocMapThreshold): the
// command's peak memory, not a library's choice, so here and not in FolioMain.
LinuxCalls.fixMallocMapThreshold(128 * 1024)

// Ctrl-C cancels the running command; the library removes its temporaries and
// FolioMain exits 130.
signal(SIGINT, SIG_IGN)
let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
let work = Task {
  let status = await FolioMain.run(Array(CommandLine.arguments.dropFirst()), context: .process())
  exit(status)
}
interrupt.setEventHandler { work.cancel() }
interrupt.resume()
dispatchMain()
