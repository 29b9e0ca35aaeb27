import Dispatch
import FolioCommands
import Glibc

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
