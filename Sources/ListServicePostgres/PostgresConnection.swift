import CLibPQ
import Foundation

/// One connection to PostgreSQL through libpq, the C client every PostgreSQL driver trusts for
/// authentication, TLS and the protocol: statements with `$1…` parameters and text results,
/// and `LISTEN`/`NOTIFY`. Not safe to use from two threads at once: its owner serialises use.
package final class PostgresConnection {
    private let handle: OpaquePointer

    /// Connects with a libpq connection string (`postgresql://user@host:port/db` or
    /// `host=… dbname=…`); the error is libpq's message.
    package init(_ connectionString: String) throws(PostgresError) {
        guard let handle = PQconnectdb(connectionString) else { throw PostgresError(message: "out of memory") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let error = PostgresError(message: Self.message(of: handle))
            PQfinish(handle)
            throw error
        }
        PQsetNoticeProcessor(handle, { _, _ in }, nil)  // notices ("already exists, skipping") are not for the service's log
        self.handle = handle
    }

    deinit { PQfinish(handle) }

    /// Whether the connection is still up (after a failed statement, it may not be).
    package var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Runs `sql` with its parameters (text; nil is NULL) and returns its rows as text.
    @discardableResult
    package func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresRows {
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        let values = copies.map { UnsafePointer($0) }
        let result = values.withUnsafeBufferPointer { values in
            PQexecParams(handle, sql, Int32(values.count), nil, values.baseAddress, nil, nil, 0)
        }
        guard let result else { throw failure }
        defer { PQclear(result) }
        guard [PGRES_COMMAND_OK, PGRES_TUPLES_OK].contains(PQresultStatus(result)) else { throw PostgresError(result) }
        return PostgresRows(result)
    }

    /// Runs `body` in a transaction begun by `begin`: committed if it returns, rolled back if it
    /// throws.
    package func transaction<T>(_ begin: String = "BEGIN", _ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
        try execute(begin)
        do throws(PostgresError) {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// Sends `rows` to a `COPY … FROM STDIN` statement (text format), in pieces of about a
    /// megabyte; returns how many rows the server took. Much faster than INSERTs for seeding.
    @discardableResult
    package func copy(_ sql: String, rows: some Sequence<[String?]>) throws(PostgresError) -> Int {
        let started = PQexec(handle, sql)
        defer { PQclear(started) }
        guard PQresultStatus(started) == PGRES_COPY_IN else { throw failure }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        for row in rows {
            for (index, field) in row.enumerated() {
                if index > 0 { buffer.append(0x09) }
                if let field { Self.appendCopyText(field, to: &buffer) } else { buffer += Array(#"\N"#.utf8) }
            }
            buffer.append(0x0A)
            if buffer.count >= 1 << 20 { try send(&buffer) }
        }
        try send(&buffer)
        guard PQputCopyEnd(handle, nil) == 1 else { throw failure }
        guard let result = PQgetResult(handle) else { throw failure }
        defer {
            PQclear(result)
            while let more = PQgetResult(handle) { PQclear(more) }
        }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw PostgresError(result) }
        return PostgresRows(result).affected
    }

    private func send(_ buffer: inout [UInt8]) throws(PostgresError) {
        guard !buffer.isEmpty else { return }
        let sent = buffer.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
        }
        guard sent == 1 else { throw failure }
        buffer.removeAll(keepingCapacity: true)
    }

    /// COPY's text format: a backslash, tab, newline or carriage return in a field is escaped.
    private static func appendCopyText(_ field: String, to buffer: inout [UInt8]) {
        for byte in field.utf8 {
            switch byte {
            case 0x5C: buffer += [0x5C, 0x5C]
            case 0x09: buffer += [0x5C, UInt8(ascii: "t")]
            case 0x0A: buffer += [0x5C, UInt8(ascii: "n")]
            case 0x0D: buffer += [0x5C, UInt8(ascii: "r")]
            default: buffer.append(byte)
            }
        }
    }

    /// The notifications received since the last call, reading what the socket holds
    /// without waiting (after `LISTEN channel`).
    package func notifications() throws(PostgresError) -> [PostgresNotification] {
        guard PQconsumeInput(handle) == 1 else { throw failure }
        var received: [PostgresNotification] = []
        while let notification = PQnotifies(handle) {
            received.append(
                PostgresNotification(
                    channel: String(cString: notification.pointee.relname), payload: String(cString: notification.pointee.extra)))
            PQfreemem(notification)
        }
        return received
    }

    /// The connection's socket, to wait on for notifications.
    package var socket: Int32 { PQsocket(handle) }

    /// What libpq says went wrong on this connection.
    private var failure: PostgresError { PostgresError(message: Self.message(of: handle)) }

    private static func message(of handle: OpaquePointer) -> String { PostgresError.oneLine(String(cString: PQerrorMessage(handle))) }
}

/// A statement's rows, as text (nil for NULL).
package struct PostgresRows: Sendable {
    package let rows: [[String?]]
    /// How many rows the statement inserted, updated or deleted.
    package let affected: Int

    init(_ result: OpaquePointer) {
        let columns = PQnfields(result)
        rows = (0..<PQntuples(result)).map { row in
            (0..<columns).map { column in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            }
        }
        affected = Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// The first row's first column, if there is one and it is not NULL.
    package var firstValue: String? { rows.first?.first ?? nil }
}

/// A `NOTIFY` received on a channel this connection listens to.
package struct PostgresNotification: Sendable, Equatable {
    package let channel: String
    package let payload: String
}

/// What libpq or the server said went wrong, with the SQLSTATE when the server gave one
/// (`40001` a serialization failure, `23505` a unique violation).
package struct PostgresError: Error, CustomStringConvertible, Sendable {
    package let message: String
    package let sqlState: String?

    package init(message: String, sqlState: String? = nil) {
        self.message = message
        self.sqlState = sqlState
    }

    /// The error a failed statement's result carries.
    init(_ result: OpaquePointer) {
        message = Self.oneLine(String(cString: PQresultErrorMessage(result)))
        sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
    }

    package var description: String { sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message }

    /// libpq's multi-line messages on one line (for log lines and problem details).
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}
