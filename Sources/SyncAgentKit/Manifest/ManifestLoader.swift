/// Loads a `manifest.yaml` into a checked ``Manifest``, or reports everything wrong with it.
///
/// Pure apart from reading the file it is asked to read: it looks nothing up by itself (the
/// home folder, the working directory, the default destination come in the ``Context``) and
/// writes nothing.
///
/// ```swift
/// let loader = ManifestLoader(context: .init(manifestPath: path, homeDirectory: home,
///                                            defaultDestination: downloads, workingDirectory: cwd))
/// do { manifest = try loader.load() } catch { print(error) } // GCC-style, one line per problem
/// ```
public struct ManifestLoader: Sendable {
    /// What validation needs from the world, looked up by the caller.
    public struct Context: Sendable, Equatable {
        /// The manifest's path as the user gave it: shown in messages as is, and its folder is
        /// where a relative `destination` starts.
        public var manifestPath: String
        /// The absolute home folder, for a `destination` that starts with `~`.
        public var homeDirectory: String
        /// The absolute folder files go to when the manifest has no `destination`.
        public var defaultDestination: String
        /// The absolute folder a relative `manifestPath` is relative to.
        public var workingDirectory: String

        /// Collects what validation needs; all paths but `manifestPath` must be absolute.
        public init(manifestPath: String, homeDirectory: String, defaultDestination: String, workingDirectory: String) {
            self.manifestPath = manifestPath
            self.homeDirectory = homeDirectory
            self.defaultDestination = defaultDestination
            self.workingDirectory = workingDirectory
        }
    }

    /// What validation needs from the world.
    public var context: Context

    /// A loader for the manifest `context` describes.
    public init(context: Context) {
        self.context = context
    }

    /// Reads and validates the file at ``Context/manifestPath``.
    public func load() throws(InvalidManifest) -> Manifest {
        let bytes: [UInt8]
        do {
            bytes = try ManifestFile.contents(of: context.manifestPath)
        } catch {
            throw InvalidManifest(errors: [
                ManifestError(code: error.code, file: context.manifestPath, line: 0, column: 0, message: error.message),
            ])
        }
        return try load(bytes)
    }

    /// Validates `bytes` as the content of the file at ``Context/manifestPath``.
    public func load(_ bytes: [UInt8]) throws(InvalidManifest) -> Manifest {
        let reading = YAMLReader.read(bytes)
        var errors = reading.problems.map { problem in
            ManifestError(
                code: problem.kind.code, file: context.manifestPath,
                line: problem.mark.line, column: problem.mark.column, message: problem.message
            )
        }
        var manifest: Manifest?
        if let root = reading.root {
            var validator = ManifestValidator(context: context)
            manifest = validator.validate(root)
            errors += validator.errors
        } else if errors.isEmpty {
            errors.append(ManifestValidator.emptyManifestError(file: context.manifestPath))
        }
        if errors.isEmpty, let manifest {
            return manifest
        }
        throw InvalidManifest(errors: Self.inPositionOrder(errors))
    }

    /// Sorted by line and column; problems at one place keep the order they were found in.
    private static func inPositionOrder(_ errors: [ManifestError]) -> [ManifestError] {
        errors.enumerated()
            .sorted { ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset) }
            .map(\.element)
    }
}

extension YAMLProblem.Kind {
    fileprivate var code: ManifestError.Code {
        switch self {
        case .syntax, .outOfMemory: .syntax
        case .encoding: .encoding
        case .controlCharacter: .controlCharacter
        case .unsupported: .unsupportedYAML
        case .tooDeep: .tooDeep
        case .duplicateKey: .duplicateKey
        }
    }
}
