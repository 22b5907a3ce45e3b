import FoundationEssentials

/// Feeds and their episodes in the state database (see ``StateSchema``, version 5).
extension StateStore {
    /// The saved state of the feed kept in `folder`, or nil if it was never checked.
    public func feedRecord(forFolder folder: String) throws(StateStoreError) -> FeedRecord? {
        try perform("read the saved state of the feed in \(folder)") { () throws(SQLiteError) in
            try database.withStatement(Self.selectFeedSQL + " WHERE folder = ?1") { statement throws(SQLiteError) in
                try statement.bind(SQLiteValue(folder), at: 1)
                return try statement.step() == .row ? FeedRecord(row: statement) : nil
            }
        }
    }

    /// Every saved feed, sorted by folder.
    public func feedRecords() throws(StateStoreError) -> [FeedRecord] {
        try perform("read the saved state of the feeds") { () throws(SQLiteError) in
            try database.withStatement(Self.selectFeedSQL + " ORDER BY folder") { statement throws(SQLiteError) in
                var records: [FeedRecord] = []
                while try statement.step() == .row { records.append(try FeedRecord(row: statement)) }
                return records
            }
        }
    }

    /// Saves what a check learnt of a feed: every column but its hold, which belongs to the
    /// user's `pause` and `stop` (a new record is saved with its hold as given).
    public func saveFeedCheck(_ record: FeedRecord) throws(StateStoreError) {
        try perform("save the state of the feed in \(record.folder)") { () throws(SQLiteError) in
            try upsertFeed(record)
        }
    }

    /// Sets or lifts the user's hold on the feed kept in `folder` (at `url`), saving a new
    /// record for a feed never checked.
    public func setFeedHold(_ hold: Hold?, forFolder folder: String, url: String) throws(StateStoreError) {
        try perform("save the hold of the feed in \(folder)") { () throws(SQLiteError) in
            let sql = """
                INSERT INTO feeds (folder, url, failed_attempts, hold) VALUES (?1, ?2, 0, ?3)
                ON CONFLICT (folder) DO UPDATE SET hold = excluded.hold
                """
            try database.withStatement(sql) { statement throws(SQLiteError) in
                try statement.bind([SQLiteValue(folder), SQLiteValue(url), SQLiteValue(hold?.rawValue)])
                try statement.run()
            }
        }
    }

    /// Forgets every feed and episode, tombstones included: `syncagent reset`.
    public func forgetFeeds() throws(StateStoreError) {
        try perform("forget the saved feeds") { () throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                for table in ["episode_keys", "episodes", "feeds"] {
                    try database.withStatement("DELETE FROM \(table)") { statement throws(SQLiteError) in try statement.run() }
                }
            }
        }
    }

    /// Every episode ever known of the feed in `folder`, with all its keys, by id.
    public func episodes(ofFeed folder: String) throws(StateStoreError) -> [StoredEpisode] {
        try perform("read the saved episodes of the feed in \(folder)") { () throws(SQLiteError) in
            var keys: [Int64: Set<EpisodeKey>] = [:]
            try database.withStatement("SELECT episode, key FROM episode_keys WHERE feed = ?1") { statement throws(SQLiteError) in
                try statement.bind(SQLiteValue(folder), at: 1)
                while try statement.step() == .row {
                    guard let id = statement.int64(at: 0), let key = statement.text(at: 1).flatMap(EpisodeKey.init(stored:)) else {
                        throw SQLiteError(code: .corrupt, message: "an episode key of the feed in \(folder) is unreadable")
                    }
                    keys[id, default: []].insert(key)
                }
            }
            return try database.withStatement(
                "SELECT id, file_name, state, title, url, published, length FROM episodes WHERE feed = ?1 ORDER BY id"
            ) { statement throws(SQLiteError) in
                try statement.bind(SQLiteValue(folder), at: 1)
                var episodes: [StoredEpisode] = []
                while try statement.step() == .row {
                    guard let id = statement.int64(at: 0), let fileName = statement.text(at: 1),
                          let state = statement.text(at: 2).flatMap(EpisodeState.init(rawValue:)),
                          let title = statement.text(at: 3), let url = statement.text(at: 4)
                    else {
                        throw SQLiteError(code: .corrupt, message: "a saved episode of the feed in \(folder) is unreadable")
                    }
                    episodes.append(StoredEpisode(id: id, keys: keys[id] ?? [], fileName: fileName, state: state, title: title, url: url,
                                                  published: statement.int64(at: 5), length: statement.int64(at: 6)))
                }
                return episodes
            }
        }
    }

    /// Saves one good check of a feed — its record and what `update` changes — in one
    /// transaction: the body's digest is never saved without the episodes it gave, so an
    /// identical body that then parses nothing has lost nothing. Deleted episodes become
    /// tombstones (their files are the caller's to remove first). Returns the new episodes'
    /// ids, in the order of ``FeedUpdate/added``.
    @discardableResult
    public func saveFeedUpdate(_ update: FeedUpdate, record: FeedRecord) throws(StateStoreError) -> [Int64] {
        let feed = record.folder
        return try perform("save the episodes of the feed in \(feed)") { () throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) -> [Int64] in
                try upsertFeed(record)
                var ids: [Int64] = []
                for new in update.added {
                    let id = try database.withStatement("""
                        INSERT INTO episodes (feed, file_name, state, title, url, published, length)
                        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id
                        """) { statement throws(SQLiteError) -> Int64 in
                        try statement.bind([
                            SQLiteValue(feed), SQLiteValue(new.fileName), SQLiteValue(new.state.rawValue), SQLiteValue(new.item.title),
                            SQLiteValue(new.item.enclosure?.url ?? ""), SQLiteValue(new.item.published?.secondsSince1970),
                            SQLiteValue(new.item.enclosure?.length),
                        ])
                        guard try statement.step() == .row, let id = statement.int64(at: 0) else {
                            throw SQLiteError(code: .error, message: "no id for a new episode")
                        }
                        return id
                    }
                    ids.append(id)
                    try addKeys(new.keys, to: id, feed: feed)
                }
                for (id, keys) in update.aliases { try addKeys(keys, to: id, feed: feed) }
                for (id, enclosure) in update.movedEnclosures {
                    try database.withStatement("UPDATE episodes SET url = ?2, length = ?3 WHERE id = ?1") { statement throws(SQLiteError) in
                        try statement.bind([SQLiteValue(id), SQLiteValue(enclosure.url), SQLiteValue(enclosure.length)])
                        try statement.run()
                    }
                }
                for id in update.deleted { try setState(.deleted, ofEpisode: id) }
                return ids
            }
        }
    }

    /// Sets where one episode stands (downloaded, failed, started again by the user).
    public func setEpisodeState(_ state: EpisodeState, ofEpisode id: Int64) throws(StateStoreError) {
        try perform("save the state of episode \(id)") { () throws(SQLiteError) in
            try setState(state, ofEpisode: id)
        }
    }

    private func setState(_ state: EpisodeState, ofEpisode id: Int64) throws(SQLiteError) {
        try database.withStatement("UPDATE episodes SET state = ?2 WHERE id = ?1") { statement throws(SQLiteError) in
            try statement.bind([SQLiteValue(id), SQLiteValue(state.rawValue)])
            try statement.run()
        }
    }

    /// Records `keys` for episode `id`; a key another episode of the feed already owns stays
    /// that episode's.
    private func addKeys(_ keys: [EpisodeKey], to id: Int64, feed: String) throws(SQLiteError) {
        try database.withStatement("INSERT OR IGNORE INTO episode_keys (feed, key, episode) VALUES (?1, ?2, ?3)") { statement throws(SQLiteError) in
            for key in keys {
                try statement.bind([SQLiteValue(feed), SQLiteValue(key.description), SQLiteValue(id)])
                try statement.run()
                statement.reset()
            }
        }
    }

    private static let feedColumns = [
        "folder", "url", "etag", "last_modified", "body_sha256", "moved_to", "moved_by", "gone_since",
        "last_check", "last_error", "failed_attempts", "next_attempt", "hold",
    ]

    private static let selectFeedSQL = "SELECT \(feedColumns.joined(separator: ", ")) FROM feeds"

    private func upsertFeed(_ record: FeedRecord) throws(SQLiteError) {
        let sql = """
            INSERT INTO feeds (\(Self.feedColumns.joined(separator: ", ")))
            VALUES (\(Self.feedColumns.indices.map { "?\($0 + 1)" }.joined(separator: ", ")))
            ON CONFLICT (folder) DO UPDATE SET
            \(Self.feedColumns.dropFirst().filter { $0 != "hold" }.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            """
        try database.withStatement(sql) { statement throws(SQLiteError) in
            try statement.bind([
                SQLiteValue(record.folder), SQLiteValue(record.url),
                SQLiteValue(record.validators.etag), SQLiteValue(record.validators.lastModified),
                SQLiteValue(record.bodySHA256), SQLiteValue(record.movedTo), SQLiteValue(record.moveKind?.rawValue),
                SQLiteValue(record.goneSince?.timeIntervalSince1970), SQLiteValue(record.lastCheck?.timeIntervalSince1970),
                SQLiteValue(record.lastError), SQLiteValue(record.failedAttempts),
                SQLiteValue(record.nextAttempt?.timeIntervalSince1970), SQLiteValue(record.hold?.rawValue),
            ])
            try statement.run()
        }
    }
}

extension FeedRecord {
    /// Reads the record from a row of ``StateStore``'s feed columns.
    init(row: SQLiteStatement) throws(SQLiteError) {
        guard let folder = row.text(at: 0), let url = row.text(at: 1) else {
            throw SQLiteError(code: .corrupt, message: "a saved feed has no folder or no URL")
        }
        let moveKind = try row.text(at: 6).map { text throws(SQLiteError) in
            guard let kind = Move(rawValue: text) else { throw SQLiteError(code: .corrupt, message: "the saved move of the feed in \(folder) is unreadable") }
            return kind
        }
        let hold = try row.text(at: 12).map { text throws(SQLiteError) in
            guard let hold = Hold(rawValue: text) else { throw SQLiteError(code: .corrupt, message: "the saved hold of the feed in \(folder) is unreadable") }
            return hold
        }
        guard (row.text(at: 5) == nil) == (moveKind == nil) else {
            throw SQLiteError(code: .corrupt, message: "the saved move of the feed in \(folder) is unreadable")
        }
        self.init(
            folder: folder, url: url, validators: Validators(etag: row.text(at: 2), lastModified: row.text(at: 3)),
            bodySHA256: row.text(at: 4), movedTo: row.text(at: 5), moveKind: moveKind,
            goneSince: row.double(at: 7).map(Date.init(timeIntervalSince1970:)), lastCheck: row.double(at: 8).map(Date.init(timeIntervalSince1970:)),
            lastError: row.text(at: 9), failedAttempts: Int(row.int64(at: 10) ?? 0),
            nextAttempt: row.double(at: 11).map(Date.init(timeIntervalSince1970:)), hold: hold
        )
    }
}

extension EpisodeKey {
    /// A key from its stored form, "kind:value" (``description``); nil for any other text.
    init?(stored text: String) {
        guard let colon = text.firstIndex(of: ":"), let kind = Kind(rawValue: String(text[..<colon])) else { return nil }
        self.init(kind, String(text[text.index(after: colon)...]))
    }
}
