import Foundation
import Glibc

/// A PostgreSQL server of a test's own: `initdb` into a new folder under /tmp, listening only
/// on a socket in that folder (so no port can clash), a database `listservice`; stopped and
/// removed when dropped. Run as root, its programs run as the `postgres` user (the server
/// refuses root). `isAvailable` is false where PostgreSQL is not installed
/// (`scripts/setup.sh` installs it): a test is then skipped, or fails in CI (`Prerequisite`).
final class TemporaryPostgres {
    let directory: String
    private let data: String

    /// libpq's connection string for the `listservice` database.
    var connectionString: String { "host=\(data) port=5432 user=postgres dbname=listservice" }

    private static let binaries = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?.sorted().last
        .map { "/usr/lib/postgresql/\($0)/bin" }

    static var isAvailable: Bool { binaries.map { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") } ?? false }

    init() throws {
        try Prerequisite.require(Self.isAvailable, "PostgreSQL")
        directory = "/tmp/listservice-pg-\(UUID().uuidString.prefix(8))"
        data = directory + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        chmod(directory, 0o755)
        if getuid() == 0 { try Self.run("/bin/chown", ["postgres", data]) }
        try tool("initdb", ["-D", data, "--auth=trust", "-U", "postgres", "-E", "UTF8", "--no-sync"])
        try start()
        try tool("createdb", ["-h", data, "-p", "5432", "-U", "postgres", "listservice"])
    }

    deinit {
        try? stop(immediately: true)
        try? FileManager.default.removeItem(atPath: directory)
    }

    func start() throws {
        try tool(
            "pg_ctl", ["-D", data, "-w", "-l", data + "/log", "-o", "-p 5432 -k \(data) -c listen_addresses='' -c fsync=off", "start"])
    }

    /// Stops the server: at once (a crash, as `kill -9` would leave it) or after its clients.
    func stop(immediately: Bool = false) throws {
        try tool("pg_ctl", ["-D", data, "-m", immediately ? "immediate" : "fast", "-w", "stop"])
    }

    private func tool(_ name: String, _ arguments: [String]) throws {
        guard let binaries = Self.binaries else { throw PostgresUnavailable() }
        if getuid() == 0 {
            try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", "\(binaries)/\(name)"] + arguments)
        } else {
            try Self.run("\(binaries)/\(name)", arguments)
        }
    }

    /// Runs a program to its end, through the shell with its output in a file. Not
    /// Foundation's `Process`: the server that `pg_ctl` leaves running keeps what the child
    /// inherited, and `waitUntilExit` was seen never to return.
    private static func run(_ executable: String, _ arguments: [String]) throws {
        let outputPath = NSTemporaryDirectory() + "listservice-pg-tool-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let command = ([executable] + arguments).map(quoted).joined(separator: " ")
        let status = system("\(command) >\(quoted(outputPath)) 2>&1 </dev/null")
        guard status == 0 else {
            let said = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw PostgresToolFailed(command: command, output: said)
        }
    }

    private static func quoted(_ argument: String) -> String { "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}

struct PostgresUnavailable: Error {}

struct PostgresToolFailed: Error, CustomStringConvertible {
    let command: String
    let output: String
    var description: String { "\(command) failed: \(output)" }
}
