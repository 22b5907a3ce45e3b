import SyncAgentKit

/// Opens libcurl and libcrypto before a command's first transfer, so that one that is not
/// installed ends the command at once with exit status 3 and the package to install, not at
/// its first download.
func loadTransferLibraries() throws(CommandFailure) {
    do {
        try TransferEngine.loadLibraries()
    } catch {
        throw CommandFailure(error.message, exitCode: .environment)
    }
}
