import Foundation
import Glibc
import ListService
import ListServiceAuth
import Testing

@testable import server

/// Bearer tokens through the real `server` process: `--jwt-keys` read at start, read again on
/// SIGHUP (a rotation without a restart), and a bad file keeping the keys in use.
@Suite struct KeyRotationProcessTests {
    func bearer(_ signer: TokenSigner, _ subject: String = "c-0002") -> [String: String] {
        ["Authorization": "Bearer " + signer.token(for: Identity(subject: subject, role: .customer), now: Date(), lifetime: 600)]
    }

    func writeKeys(_ signers: [TokenSigner], to path: String) throws {
        try #"{"keys":[\#(signers.map(\.jwk).joined(separator: ","))]}"#.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Waits until `condition` holds (a signal is handled on another thread), up to 5 s.
    func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return false
    }

    @Test func sighup_rotatesTheKeys_andABadFileKeepsThem() throws {
        try withTemporaryDirectory { directory in
            let old = try TokenSigner(secret: Array(repeating: 1, count: 32), keyID: "old")
            let new = try TokenSigner(secret: Array(repeating: 2, count: 32), keyID: "new")
            let path = directory + "/jwks.json"
            try writeKeys([old], to: path)
            let (process, port, errors, _) = try startServer(["--in-memory", "--no-access-log", "--jwt-keys", path])
            defer { process.terminate() }
            #expect(httpRequest(port: port, "GET", "/orders").status == 401, "orders need a token")
            #expect(httpRequest(port: port, "GET", "/orders", headers: bearer(old)).status == 200)
            #expect(httpRequest(port: port, "GET", "/orders", headers: bearer(new)).status == 401)

            try writeKeys([new], to: path)
            kill(process.processIdentifier, SIGHUP)
            #expect(eventually { httpRequest(port: port, "GET", "/orders", headers: bearer(new)).status == 200 })
            #expect(httpRequest(port: port, "GET", "/orders", headers: bearer(old)).status == 401, "the old key is gone at once")

            try #"{"keys":[{"kty":"oct","k":"c2hvcnQ"}]}"#.write(toFile: path, atomically: true, encoding: .utf8)
            kill(process.processIdentifier, SIGHUP)
            var log = ""
            #expect(
                eventually {
                    log += String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
                    return log.contains("event=jwt-keys-reload-failed")
                })
            #expect(
                log.split(separator: "\n").count { $0.contains("jwt-keys-reload-failed") } == 1 && log.contains("keeping=previous-keys"))
            #expect(httpRequest(port: port, "GET", "/orders", headers: bearer(new)).status == 200, "the keys in use stay")
            #expect(process.isRunning)
        }
    }

    @Test func options_forTokens() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/jwks.json"
            try writeKeys([try TokenSigner(secret: Array(repeating: 3, count: 32), keyID: "k")], to: path)
            let options = try ServerOptions.parse(
                [
                    "--jwt-keys", path, "--jwt-issuer", "https://id.example", "--jwt-audience", "api", "--jwt-leeway", "5",
                    "--jwt-role-claim", "https://example.com/role",
                ],
                environment: [:])
            #expect(options.jwtKeys?.keys.map(\.id) == ["k"] && options.jwtKeysPath == path)
            #expect(options.tokenClaims.issuer == "https://id.example" && options.tokenClaims.audience == "api")
            #expect(options.tokenClaims.leeway == 5 && options.tokenClaims.roleClaim == "https://example.com/role")
            #expect(options.accessPolicy().credentials.requiresIdentity)
            let document = try String(contentsOfFile: path, encoding: .utf8)
            #expect(try ServerOptions.parse([], environment: ["LISTSERVICE_JWT_KEYS": document]).jwtKeys?.keys.count == 1)
            #expect(try ServerOptions.parse([], environment: [:]).offersDemoIdentities, "on a loopback address")
            #expect(try !ServerOptions.parse(["--host", "0.0.0.0"], environment: [:]).offersDemoIdentities)
            #expect(try !ServerOptions.parse(["--no-demo-identities"], environment: [:]).offersDemoIdentities)
            for bad in [
                ["--jwt-keys", directory + "/missing"], ["--jwt-leeway", "-1"], ["--host", "0.0.0.0", "--demo-identities"],
            ] {
                #expect(throws: ServerOptions.Failure.self) { try ServerOptions.parse(bad, environment: [:]) }
            }
            #expect(throws: ServerOptions.Failure.self) { try ServerOptions.parse([], environment: ["LISTSERVICE_JWT_KEYS": "{}"]) }
        }
    }
}
