import CSQLite
import CSQLiteShim

#if canImport(Glibc)
    import Glibc
#endif

/// Why SQLite refused: its result code (extended: the primary code is its low byte) and
/// message. Told apart by the code, never by the message.
struct SQLiteError: Error, Equatable, CustomStringConvertible {
    var code: Int32
    var message: String

    var description: String { message }
}

/// A value bound to a statement or read from a row.
enum SQLiteValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    static func optional(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
    static func optional(_ number: Int?) -> SQLiteValue { number.map { .integer(Int64($0)) } ?? .null }
    static func optional(_ number: Double?) -> SQLiteValue { number.map(SQLiteValue.real) ?? .null }
}

/// One connection to a SQLite database (libsqlite3), with `fold()` registered and its
/// statements prepared once. Used by one thread at a time; in WAL mode readers on other
/// connections never wait for its writes.
final class SQLiteDatabase {
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens (creating) the database at `path`; `cacheKiB` bounds its page cache.
    init(path: String, readOnly: Bool = false, cacheKiB: Int = 1024, busyMilliseconds: Int32 = 5000)
        throws(SQLiteError)
    {
        var opened: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        guard let opened else { throw SQLiteError(code: status, message: "cannot open \(path)") }
        guard status == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(opened))
            sqlite3_close_v2(opened)
            throw SQLiteError(code: status, message: "\(path): \(message)")
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyMilliseconds)
        guard playbackd_sqlite_register_fold(handle) == SQLITE_OK, playbackd_sqlite_register_key_id(handle) == SQLITE_OK
        else {
            throw SQLiteError(code: SQLITE_ERROR, message: "this libsqlite3 has no FTS5")
        }
        let registered = playbackd_sqlite_register_regexp(handle)
        guard registered == SQLITE_OK else { throw SQLiteError(code: registered, message: "cannot register regexp") }
        try execute("PRAGMA cache_size = -\(cacheKiB)")
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs `sql` (any number of statements, no results).
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "error \(status)"
            sqlite3_free(message)
            throw SQLiteError(code: status, message: text)
        }
    }

    /// The statement for `sql`, prepared at its first use and kept, reset for another run.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let kept = statements[sql] {
            kept.reset()
            return kept
        }
        var prepared: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard status == SQLITE_OK, let prepared else { throw error(status) }
        let statement = SQLiteStatement(prepared, database: self)
        statements[sql] = statement
        return statement
    }

    /// Whether the main database has a table `name` (a new file has none).
    func hasTable(_ name: String) throws(SQLiteError) -> Bool {
        try !rows("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?1", [.text(name)]) { _ in 1 }
            .isEmpty
    }

    /// Runs `sql` with `values` and returns each row read by `row`.
    func rows<Row>(_ sql: String, _ values: [SQLiteValue] = [], _ row: (SQLiteStatement) -> Row) throws(SQLiteError)
        -> [Row]
    {
        let statement = try statement(sql)
        try statement.bind(values)
        var rows: [Row] = []
        while try statement.step() { rows.append(row(statement)) }
        return rows
    }

    /// Runs `sql` with `values` and gives each row to `body` (no array of rows made).
    func forEachRow(_ sql: String, _ values: [SQLiteValue] = [], _ body: (SQLiteStatement) -> Void)
        throws(SQLiteError)
    {
        let statement = try statement(sql)
        try statement.bind(values)
        while try statement.step() { body(statement) }
    }

    /// Runs `sql` with `values` for its effect.
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
        let statement = try statement(sql)
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Runs `body` in one transaction: all of it, or (when it throws) none of it.
    func transaction<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Gives back the page cache's memory (`sqlite3_db_release_memory`) and finalizes the
    /// statements kept, which are prepared again when next used.
    func releaseMemory() {
        statements.removeAll()
        sqlite3_db_release_memory(handle)
    }

    /// The rowid of the last row inserted.
    var lastInsertedID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    func error(_ status: Int32) -> SQLiteError {
        SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A prepared statement of a `SQLiteDatabase`.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let database: SQLiteDatabase

    fileprivate init(_ handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(handle, index)
            case .integer(let number): status = sqlite3_bind_int64(handle, index, number)
            case .real(let number): status = sqlite3_bind_double(handle, index, number)
            case .text(let text):
                var text = text
                status = text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) {
                        playbackd_sqlite_bind_text(handle, index, $0.baseAddress, Int32($0.count))
                    }
                }
            }
            guard status == SQLITE_OK else { throw database.error(status) }
        }
    }

    /// Moves to the next row; false when there is none.
    func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE:
            sqlite3_reset(handle)
            return false
        default:
            let error = database.error(status)
            sqlite3_reset(handle)
            throw error
        }
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
    func text(_ column: Int32) -> String { optionalText(column) ?? "" }
    /// Whether the text in `column` is the UTF-8 `utf8`, compared as bytes (no string made).
    func text(_ column: Int32, equals utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let bytes = sqlite3_column_text(handle, column), count == utf8.count else { return false }
        return count == 0 || memcmp(bytes, utf8.baseAddress!, count) == 0
    }
    func optionalText(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
