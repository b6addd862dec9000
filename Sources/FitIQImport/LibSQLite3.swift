import FitIQCore
import Synchronization

/// The system's libsqlite3, opened with `dlopen` at the first Health Connect import (as libxml2 and
/// libcurl are), and the few functions that read a table. Nothing links it: `fitiq-tui` starts
/// without it. The library stays loaded for the rest of the process.
struct LibSQLite3: @unchecked Sendable {  // C function pointers, set once and never changed.
    static let libraryName = "libsqlite3.so.0"
    static let packageName = "libsqlite3-0"

    typealias Open =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?
        ) -> Int32
    typealias Prepare =
        @convention(c) (
            OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?,
            UnsafeMutablePointer<UnsafePointer<CChar>?>?
        ) -> Int32
    typealias Statement = @convention(c) (OpaquePointer?) -> Int32
    typealias ColumnType = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias ColumnDouble = @convention(c) (OpaquePointer?, Int32) -> Double
    typealias ColumnInt64 = @convention(c) (OpaquePointer?, Int32) -> Int64
    typealias Message = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?

    let open: Open
    let prepare: Prepare
    let step: Statement
    let finalize: Statement
    let close: Statement
    let columnType: ColumnType
    let columnDouble: ColumnDouble
    let columnInt64: ColumnInt64
    let errorMessage: Message

    static let readOnly: Int32 = 0x01
    static let uri: Int32 = 0x40
    static let row: Int32 = 100
    static let done: Int32 = 101
    static let null: Int32 = 5

    private static let shared = Mutex<LibSQLite3?>(nil)

    /// The loaded library, loading it on first use; throws
    /// ``HealthImportError/libraryMissing(library:package:reason:)`` when it cannot be loaded.
    static func load() throws(HealthImportError) -> LibSQLite3 {
        try shared.made { () throws(HealthImportError) -> LibSQLite3 in try open(libraryName) }
    }

    static func open(_ name: String) throws(HealthImportError) -> LibSQLite3 {
        try HealthImportError.opening(name, package: packageName) { library throws(DynamicLibrary.Missing) in
            LibSQLite3(
                open: try library.symbol("sqlite3_open_v2", as: Open.self),
                prepare: try library.symbol("sqlite3_prepare_v2", as: Prepare.self),
                step: try library.symbol("sqlite3_step", as: Statement.self),
                finalize: try library.symbol("sqlite3_finalize", as: Statement.self),
                close: try library.symbol("sqlite3_close", as: Statement.self),
                columnType: try library.symbol("sqlite3_column_type", as: ColumnType.self),
                columnDouble: try library.symbol("sqlite3_column_double", as: ColumnDouble.self),
                columnInt64: try library.symbol("sqlite3_column_int64", as: ColumnInt64.self),
                errorMessage: try library.symbol("sqlite3_errmsg", as: Message.self))
        }
    }

    /// A value and an instant of each row that `query` (`SELECT value, time …`) selects, for every
    /// query of `queries` whose table the database at `path` has; the database is opened read only and
    /// immutable (nothing is written beside it). `nil` when it has none of those tables.
    func valuesAndTimes(at path: String, queries: [String]) throws -> [[(value: Double?, time: Int64?)]]? {
        try rows(at: path, queries: queries.map { ($0, 2) })?.map { rows in
            rows.map { ($0[0], $0[1].map { Int64($0) }) }
        }
    }

    /// The `columns` columns of each row that each of `queries` selects (as many as it selects), as
    /// numbers (`nil` for NULL; integers up to 2⁵³ exactly, as milliseconds since 1970 are), for every
    /// query whose tables and columns the database at `path` has (an empty list for the others); opened
    /// read only and immutable. `nil` when no query could be run.
    func rows(at path: String, queries: [(sql: String, columns: Int32)]) throws -> [[[Double?]]]? {
        var database: OpaquePointer?
        let keep = { (byte: UInt8, _: Int) in PercentEncoding.isAlphanumeric(byte) || "/._-".utf8.contains(byte) }
        let address = "file:" + PercentEncoding.encode(path, keeping: keep) + "?immutable=1"
        guard open(address, &database, Self.readOnly | Self.uri, nil) == 0, let database else {
            _ = close(database)
            throw HealthImportError.unreadable(path: path, reason: "SQLite cannot open it")
        }
        defer { _ = close(database) }
        var tables: [[[Double?]]] = []
        var found = 0
        for (query, columns) in queries {
            var rows: [[Double?]] = []
            defer { tables.append(rows) }
            var statement: OpaquePointer?
            // A table this database lacks (no readings of that kind ever) is passed over.
            guard prepare(database, query, -1, &statement, nil) == 0, let statement else { continue }
            defer { _ = finalize(statement) }
            found += 1
            while true {
                let result = step(statement)
                if result == Self.done { break }
                guard result == Self.row else {
                    let said = errorMessage(database).map { String(cString: $0) } ?? String(result)
                    throw HealthImportError.unreadable(path: path, reason: said)
                }
                rows.append(
                    (0..<columns).map { column in
                        columnType(statement, column) == Self.null ? nil : columnDouble(statement, column)
                    })
            }
        }
        return found == 0 ? nil : tables
    }
}
