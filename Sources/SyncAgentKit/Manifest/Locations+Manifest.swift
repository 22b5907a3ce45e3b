import FoundationEssentials

extension Locations {
    /// The manifest as it is on disk now, or every problem in it.
    public func loadValidManifest() throws(InvalidManifest) -> Manifest {
        let context = ManifestLoader.Context(
            manifestPath: manifest,
            homeDirectory: directories.home,
            defaultDestination: directories.defaultDestination,
            workingDirectory: FileManager.default.currentDirectoryPath
        )
        return try ManifestLoader(context: context).load()
    }
}
