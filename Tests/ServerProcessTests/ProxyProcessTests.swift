import Foundation
import Glibc
import ListService
import ListServiceAuth
import Testing

@testable import server

/// The real `server` behind a real nginx, deployed as `deploy/nginx.conf` does: what a loopback
/// server grants by default is refused to every visitor the proxy passes on, and a trusted
/// proxy's `X-Forwarded-For` names each visitor for the rate limits and the access log.
@Suite(.serialized) struct ProxyProcessTests {
    static let nginxBinary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// nginx in the foreground, one process, proxying 127.0.0.1:`port` to the server at `upstream`
    /// with the deployment's headers; stopped by the caller.
    func startNginx(in directory: String, upstream: Int) throws -> (process: Process, port: Int) {
        let binary = try #require(Self.nginxBinary)
        let port = try #require(freePort())
        let configuration = """
            daemon off;
            master_process off;
            pid \(directory)/nginx.pid;
            error_log \(directory)/error.log warn;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(directory)/body;
                proxy_temp_path \(directory)/proxy;
                fastcgi_temp_path \(directory)/fastcgi;
                uwsgi_temp_path \(directory)/uwsgi;
                scgi_temp_path \(directory)/scgi;
                server {
                    listen 127.0.0.1:\(port);
                    location / {
                        proxy_pass http://127.0.0.1:\(upstream);
                        proxy_http_version 1.1;
                        proxy_set_header Connection "";
                        proxy_set_header Host $http_host;
                        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                    }
                }
            }
            """
        try configuration.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-p", directory, "-c", directory + "/nginx.conf", "-e", directory + "/error.log"]
        process.standardError = Pipe()
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, process.isRunning, connectSocket(port: port).map({ close($0) }) == nil { usleep(20_000) }
        guard process.isRunning else {
            throw NginxFailure(log: (try? String(contentsOfFile: directory + "/error.log", encoding: .utf8)) ?? "")
        }
        return (process, port)
    }

    /// Stops nginx for good: SIGKILL, since a process started from the tests may inherit a
    /// signal mask that blocks SIGTERM; it then holds no pipe of the test run.
    func stop(_ nginx: Process) {
        kill(nginx.processIdentifier, SIGKILL)
        nginx.waitUntilExit()
    }

    struct NginxFailure: Error, CustomStringConvertible {
        let log: String
        var description: String { "nginx did not start: \(log)" }
    }

    /// A port nothing listens on now (the system's pick for a socket bound and closed).
    func freePort() -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    @Test(Prerequisite.needs(nginxBinary != nil, "nginx"))
    func throughNginx_demoSignInIs404_andAnonymousWritesAre401() throws {
        try Prerequisite.require(Self.nginxBinary != nil, "nginx")
        try withTemporaryDirectory { directory in
            let (server, port, _, log) = try startServer(["--in-memory", "--no-access-log"])
            defer { server.terminate() }
            #expect(log.contains("event=demo-identities"), "on by default: a loopback address, no identity source")
            let (nginx, proxyPort) = try startNginx(in: directory, upstream: port)
            defer { stop(nginx) }

            #expect(httpRequest(port: port, "GET", "/auth/demo").status == 200, "a caller on this machine may sign in")
            let demo = httpRequest(port: proxyPort, "GET", "/auth/demo")
            #expect(demo.status == 404 && demo.headers["content-type"] == "application/problem+json")
            #expect(String(decoding: demo.body, as: UTF8.self).contains("came through a proxy"))
            let admin = httpRequest(port: proxyPort, "POST", "/auth/demo", json: #"{"sub":"mallory","role":"admin"}"#)
            #expect(admin.status == 404 && !String(decoding: admin.body, as: UTF8.self).contains("token"))

            let page = httpRequest(port: proxyPort, "GET", "/orders?limit=1")
            #expect(page.status == 200, "reads pass")
            let id = try #require(((page.json["items"] as? [[String: Any]])?.first?["id"]) as? String)
            let delete = httpRequest(port: proxyPort, "DELETE", "/orders/\(id)")
            #expect(delete.status == 401 && delete.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
            #expect(String(decoding: delete.body, as: UTF8.self).contains("came through a proxy"))
            #expect(httpRequest(port: proxyPort, "POST", "/orders/\(id)/complete").status == 401)
            #expect(httpRequest(port: port, "GET", "/orders/\(id)").status == 200, "nothing changed")
        }
    }

    @Test(Prerequisite.needs(nginxBinary != nil, "nginx"))
    func behindATrustedProxy_eachVisitorHasTheirOwnRate_andLogLine() throws {
        try Prerequisite.require(Self.nginxBinary != nil, "nginx")
        try withTemporaryDirectory { directory in
            let (server, port, errors, _) = try startServer([
                "--in-memory", "--trusted-proxies", "127.0.0.1,::1", "--rate-limit", "1/s", "--rate-burst", "3",
            ])
            defer { if server.isRunning { server.terminate() } }
            let (nginx, proxyPort) = try startNginx(in: directory, upstream: port)
            defer { if nginx.isRunning { stop(nginx) } }
            // This test's own requests come from 127.0.0.1, itself a trusted proxy: the address
            // it claims stands for a visitor from afar, as nginx's own would for a real one.
            func visit(_ address: String) -> Int {
                httpRequest(port: proxyPort, "GET", "/orders?limit=1", headers: ["X-Forwarded-For": address]).status
            }
            #expect((0..<3).map { _ in visit("203.0.113.1") } == [200, 200, 200])
            #expect(visit("203.0.113.1") == 429, "one visitor over their burst")
            #expect(visit("203.0.113.2") == 200, "another visitor behind the same proxy is not throttled")
            stop(nginx)  // it holds a copy of the server's log pipe, which then ends with the server
            server.terminate()
            server.waitUntilExit()
            let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(log.contains(" 429 ") && log.contains("client=203.0.113.1"))
            #expect(log.contains("client=203.0.113.2"))
        }
    }

    @Test func options_demoIdentitiesByDefault_onlyWithoutAnIdentitySource() throws {
        try withTemporaryDirectory { directory in
            let jwks = directory + "/jwks.json"
            let signer = try TokenSigner(secret: Array(repeating: 7, count: 32), keyID: "k")
            try #"{"keys":[\#(signer.jwk)]}"#.write(toFile: jwks, atomically: true, encoding: .utf8)
            #expect(try ServerOptions.parse([], environment: [:]).offersDemoIdentities)
            #expect(try !ServerOptions.parse(["--jwt-keys", jwks], environment: [:]).offersDemoIdentities)
            #expect(try !ServerOptions.parse([], environment: ["LISTSERVICE_JWT_KEYS": #"{"keys":[\#(signer.jwk)]}"#]).offersDemoIdentities)
            #expect(try !ServerOptions.parse([], environment: ["LISTSERVICE_API_KEYS": "alpha"]).offersDemoIdentities)
            #expect(try ServerOptions.parse(["--jwt-keys", jwks, "--demo-identities"], environment: [:]).offersDemoIdentities)
            #expect(try !ServerOptions.parse(["--host", "0.0.0.0"], environment: [:]).offersDemoIdentities)

            let (quiet, quietPort, _, quietLog) = try startServer(["--in-memory", "--no-access-log", "--jwt-keys", jwks])
            defer { quiet.terminate() }
            #expect(!quietLog.contains("event=demo-identities"))
            #expect(httpRequest(port: quietPort, "GET", "/auth/demo").status == 404)
            let (asked, askedPort, _, askedLog) = try startServer([
                "--in-memory", "--no-access-log", "--jwt-keys", jwks, "--demo-identities", "--allow-anonymous-writes",
            ])
            defer { asked.terminate() }
            #expect(askedLog.contains("level=warning event=demo-identities") && askedLog.contains("anyone reaching the service"))
            #expect(!askedLog.contains("event=anonymous-writes"), "with token keys, writes still need a token")
            #expect(httpRequest(port: askedPort, "GET", "/auth/demo", headers: ["X-Forwarded-For": "203.0.113.1"]).status == 200)
        }
    }

    @Test func options_trustedProxies() throws {
        let options = try ServerOptions.parse(["--trusted-proxies", "127.0.0.1,10.0.0.0/8", "--trusted-proxies", "::1"], environment: [:])
        #expect(options.configuration.trustedProxies.ranges.map(\.description) == ["127.0.0.1/32", "10.0.0.0/8", "::1/128"])
        #expect(try ServerOptions.parse([], environment: [:]).configuration.trustedProxies.ranges.isEmpty)
        #expect(throws: ServerOptions.Failure.self) { try ServerOptions.parse(["--trusted-proxies", "nginx.local"], environment: [:]) }
        #expect(throws: ServerOptions.Failure.self) { try ServerOptions.parse(["--trusted-proxies", "10.0.0.0/40"], environment: [:]) }
    }
}
