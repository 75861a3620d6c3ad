import PlaybackModel

/// What each scrobbling service has had of the history: a cursor per service (the last
/// hearing handed over, moved only once the service said it took it) and the listens it
/// refused, set aside with its reason. A listen goes to a service when it counts, has a title
/// and an artist, and lies past the service's cursor.
extension HistoryDatabase {
    /// A listen waiting for a service, with its row.
    struct PendingListen: Equatable {
        var hearing: Int64
        var listen: Listen
    }

    private static let pendingCondition = """
        isListen = 1 AND title IS NOT NULL AND title != '' AND artists != '[]'
            AND id > coalesce((SELECT hearing FROM scrobbleCursors WHERE service = ?), 0)
        """

    /// The first `limit` listens `service` has not had, oldest first.
    func pending(for service: String, limit: Int) throws(SQLiteError) -> [PendingListen] {
        try database.rows(
            """
            SELECT id, \(Self.listenColumns) FROM hearings WHERE \(Self.pendingCondition) ORDER BY id LIMIT ?
            """, [.text(service), .integer(Int64(limit))]
        ) { row in PendingListen(hearing: Int64(row.int(0)), listen: Self.listen(row, from: 1)) }
    }

    /// How many listens `service` has not had.
    func pendingCount(for service: String) throws(SQLiteError) -> Int {
        try database.rows("SELECT count(*) FROM hearings WHERE \(Self.pendingCondition)", [.text(service)]) {
            $0.int(0)
        }.first ?? 0
    }

    /// `service` took every listen up to `hearing` at `sentAt` (seconds since the epoch), but
    /// those in `refused`, set aside with their reasons; one transaction.
    func advance(
        _ service: String, through hearing: Int64, sentAt: Double?, refused: [Int64: String] = [:]
    ) throws(SQLiteError) {
        try database.transaction { () throws(SQLiteError) in
            try database.run(
                """
                INSERT INTO scrobbleCursors (service, hearing, sentAt) VALUES (?, ?, ?)
                ON CONFLICT (service) DO UPDATE SET hearing = excluded.hearing,
                    sentAt = coalesce(excluded.sentAt, sentAt)
                """, [.text(service), .integer(hearing), .optional(sentAt)])
            for (refusedHearing, reason) in refused {
                try database.run(
                    "INSERT OR REPLACE INTO scrobblesSetAside (service, hearing, reason) VALUES (?, ?, ?)",
                    [.text(service), .integer(refusedHearing), .text(reason)])
            }
        }
    }

    /// When `service` last took a listen, and how many it refused.
    func scrobbleRecord(for service: String) throws(SQLiteError) -> (sentAt: Double?, refused: Int) {
        let sentAt =
            try database.rows("SELECT sentAt FROM scrobbleCursors WHERE service = ?", [.text(service)]) {
                $0.optionalDouble(0)
            }.first ?? nil
        let refused =
            try database.rows(
                "SELECT count(*) FROM scrobblesSetAside WHERE service = ?", [.text(service)]
            ) { $0.int(0) }.first ?? 0
        return (sentAt, refused)
    }
}
