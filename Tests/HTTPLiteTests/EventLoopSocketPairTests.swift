import Foundation
import Basics
import Glibc
import Testing

@testable import HTTPLite

/// The event loop driven by hand over a `socketpair`: no ports, no threads of its own, no
/// sleeps. The loop's clock is the test's, so timeouts are reached by moving it. Every test
/// runs on both backends.
@Suite struct EventLoopSocketPairTests {
    /// A loop serving one end of a socket pair; the test is the client on the other end.
    final class Rig {
        let loop: EventLoop
        let client: Int32
        let clock: ManualClock

        final class ManualClock: @unchecked Sendable {
            // Invariant: read and advanced only on the test's thread (the loop runs there too).
            var milliseconds: Int64 = 1_000
        }

        init(_ backend: EventBackendKind, configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
            var configuration = ServerConfiguration.makeForTesting(configure)
            configuration.eventBackend = backend
            let made = try backend.make()
            let context = ServerContext(configuration: configuration, handler: Self.router.handle)
            let clock = ManualClock()
            self.clock = clock
            loop = EventLoop(handle: LoopHandle(waker: made.waker), backend: made, listenerFD: nil, context: context) { clock.milliseconds }
            var ends: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw SocketError("socketpair") }
            for fd in ends { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
            client = ends[1]
            _ = context.admitConnection()
            #expect(loop.adopt(ends[0]))
        }

        deinit { Glibc.close(client) }

        /// The socket tests' routes, plus a deferred response and a stream finished at once
        /// by another thread.
        static let router: Router = {
            var router = makeTestRouter()
            router.get("/later") { _ in
                .deferred { pending in
                    Thread.detachNewThread {
                        pending.complete(Response(status: .created, contentType: "text/plain", bytes: Array("later".utf8)))
                    }
                }
            }
            router.get("/events") { _ in
                Response(
                    body: .stream { stream in
                        Thread.detachNewThread {
                            for index in 1...3 { stream.write("event \(index)\n") }
                            stream.finish()
                        }
                    })
            }
            router.get("/held/:name") { request in
                let name = request.pathParameters["name"] ?? ""
                return Response(body: .stream { stream in held.withLock { $0[name] = stream } })
            }
            return router
        }()

        /// The streams `/held/<name>` opened, for the test named so to write to.
        static let held = Locked<[String: ResponseStream]>([:])

        /// Opens `/held/<name>` on the loop and takes its stream.
        func openHeldStream(_ name: String) throws -> ResponseStream {
            send("GET /held/\(name) HTTP/1.1\r\nHost: t\r\n\r\n")
            settle()
            return try #require(Self.held.withLock { $0.removeValue(forKey: name) })
        }

        /// Runs the loop, blocking in its backend until woken, until `isDone` holds for what
        /// was received (at most 50 waits).
        func serve(until isDone: (String) -> Bool) -> String {
            var text = ""
            for _ in 0..<50 where !isDone(text) {
                _ = loop.runOnce(timeout: 1_000)
                text += received() ?? ""
            }
            return text
        }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBytes { Glibc.write(client, $0.baseAddress, $0.count) } == bytes.count)
        }

        /// Runs the loop without blocking until it has nothing more to do.
        func settle() {
            for _ in 0..<8 { _ = loop.runOnce(timeout: 0) }
        }

        /// What the server sent so far; nil once it closed and everything was read.
        func received() -> String? {
            var text = ""
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(client, &buffer, buffer.count)
                if count > 0 {
                    text += String(decoding: buffer[..<count], as: UTF8.self)
                } else if count == 0 {
                    return text.isEmpty ? nil : text
                } else {
                    return text
                }
            }
        }

        /// Moves the loop's clock on and lets its timers run (they run at most once per
        /// sweep interval, so steps of at least that long each reach them).
        func advance(by milliseconds: Int64) {
            #expect(milliseconds >= loop.sweepInterval)
            clock.milliseconds += milliseconds
            settle()
        }

        var openConnections: Int { loop.connections.count }
    }

    static let get = "GET /hello HTTP/1.1\r\nHost: t\r\n\r\n"

    @Test(arguments: EventBackendKind.allCases)
    func requests_areAnsweredInOrder_onOneConnection(_ backend: EventBackendKind) throws {
        let rig = try Rig(backend)
        rig.send(Self.get + "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc")
        rig.settle()
        let text = try #require(rig.received())
        #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
        #expect(text.hasSuffix("\r\n\r\nabc"))
        rig.send(Self.get)
        rig.settle()
        #expect(rig.received()?.hasSuffix("hello") == true, "the connection stays open")
    }

    @Test(arguments: EventBackendKind.allCases)
    func aSlowHead_gets408_whenTheClockPassesTheHeaderTimeout(_ backend: EventBackendKind) throws {
        let rig = try Rig(backend) { $0.headerReadTimeout = .seconds(10) }
        rig.send("GET /hello HTTP/1.1\r\nHo")
        rig.settle()
        rig.advance(by: 9_000)
        #expect(rig.received() == "", "nothing before the timeout")
        rig.advance(by: 1_000)
        let text = try #require(rig.received())
        #expect(text.hasPrefix("HTTP/1.1 408 Request Timeout"))
        shutdown(rig.client, Int32(SHUT_WR))  // the client closes too: the lingering close ends
        rig.settle()
        #expect(rig.openConnections == 0)
    }

    @Test(arguments: EventBackendKind.allCases)
    func aRequestSentOneByteAtATime_isServed(_ backend: EventBackendKind) throws {
        let rig = try Rig(backend)
        for byte in "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n" {
            rig.send(String(byte))
            rig.settle()
        }
        #expect(rig.received()?.hasSuffix("\r\n\r\nhi") == true)
    }

    @Test(arguments: EventBackendKind.allCases)
    func aBodyPastItsTimeout_gets408_evenWhileBytesKeepComing(_ backend: EventBackendKind) throws {
        let rig = try Rig(backend) {
            $0.bodyReadTimeout = .seconds(6)
            $0.minBodyBytesPerSecond = 0
        }
        rig.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 1000\r\n\r\n")
        rig.settle()
        for _ in 0..<6 {
            rig.send("xxxxx")
            rig.advance(by: 1_000)
        }
        #expect(rig.received()?.hasPrefix("HTTP/1.1 408 Request Timeout") == true)
    }

    @Test(arguments: EventBackendKind.allCases)
    func aBodyBelowTheMinimumRate_gets408AfterTheGrace_aFairOneDoesNot(_ backend: EventBackendKind) throws {
        let configure: (inout ServerConfiguration) -> Void = {
            $0.bodyReadTimeout = .seconds(60)
            $0.minBodyBytesPerSecond = 1_000
            $0.minBodyRateGrace = .seconds(5)
        }
        let slow = try Rig(backend, configure: configure)
        let fair = try Rig(backend, configure: configure)
        for rig in [slow, fair] {
            rig.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n")
            rig.settle()
        }
        for _ in 0..<7 {
            slow.send(String(repeating: "x", count: 100))  // 100 bytes a second
            fair.send(String(repeating: "x", count: 2_000))  // 2,000 bytes a second
            slow.advance(by: 1_000)
            fair.advance(by: 1_000)
        }
        #expect(slow.received()?.hasPrefix("HTTP/1.1 408 Request Timeout") == true)
        #expect(fair.received() == "", "still reading its body")
        #expect(fair.openConnections == 1)
    }

    @Test(arguments: EventBackendKind.allCases)
    func anIdleConnection_isClosedAtTheIdleTimeout(_ backend: EventBackendKind) throws {
        let rig = try Rig(backend) { $0.idleTimeout = .seconds(30) }
        rig.send(Self.get)
        rig.settle()
        _ = rig.received()
        rig.advance(by: 29_000)
        #expect(rig.openConnections == 1)
        rig.advance(by: 1_000)
        #expect(rig.openConnections == 0)
        #expect(rig.received() == nil, "the client sees the close")
    }

    @Test(arguments: EventBackendKind.allCases)
    func aMalformedRequest_gets400_thenALingeringClose(_ backend: EventBackendKind) throws {
        let rig = try Rig(backend)
        rig.send("BROKEN\r\n\r\n")
        rig.settle()
        #expect(rig.received()?.hasPrefix("HTTP/1.1 400 Bad Request") == true)
        #expect(rig.openConnections == 1, "draining what the client still sends")
        rig.send("late bytes")
        rig.settle()
        #expect(rig.openConnections == 1)
        rig.advance(by: 2_000)
        #expect(rig.openConnections == 0, "lingering ends at its timeout")
    }

    @Test(arguments: EventBackendKind.allCases)
    func aDeferredResponse_wakesTheLoop_fromAnotherThread(_ backend: EventBackendKind) throws {
        let rig = try Rig(backend)
        rig.send("GET /later HTTP/1.1\r\nHost: t\r\n\r\n" + Self.get)
        let text = rig.serve { $0.hasSuffix("hello") }
        #expect(text.hasPrefix("HTTP/1.1 201 Created"), "the deferred answer first")
        #expect(text.contains("later"))
        #expect(text.hasSuffix("hello"), "then the request pipelined behind it")
    }

    @Test(arguments: EventBackendKind.allCases)
    func aStream_isSentAsItIsWritten_fromAnotherThread(_ backend: EventBackendKind) throws {
        let rig = try Rig(backend)
        rig.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n" + Self.get)
        let text = rig.serve { $0.hasSuffix("hello") }
        #expect(text.contains("Transfer-Encoding: chunked"))
        #expect(text.contains("8\r\nevent 1\n\r\n8\r\nevent 2\n\r\n8\r\nevent 3\n\r\n0\r\n\r\n"))
        #expect(text.hasSuffix("hello"))
    }

    @Test(arguments: EventBackendKind.allCases)
    func aClientThatHangsUp_isClosed(_ backend: EventBackendKind) throws {
        let rig = try Rig(backend)
        rig.send(Self.get)
        rig.settle()
        shutdown(rig.client, Int32(SHUT_RDWR))
        rig.settle()
        #expect(rig.openConnections == 0)
    }

    @Test(.serialized, arguments: EventBackendKind.allCases)  // one `/held/<name>` stream per name at a time
    func aStreamCountsWhatTheClientHasNotRead_andWakesAWaiterOnceDrained(_ backend: EventBackendKind) throws {
        let rig = try Rig(backend)
        let stream = try rig.openHeldStream("drain")
        let piece = [UInt8](repeating: 0x61, count: 64 * 1024)
        for _ in 0..<32 { stream.write(piece) }  // 2 MiB, far more than the socket buffers take
        #expect(stream.unsentBytes == 32 * piece.count, "nothing taken before the loop runs")
        rig.settle()
        let backlog = stream.unsentBytes
        #expect(backlog > 256 * 1024 && backlog < 32 * piece.count, "the socket took some, the rest waits")
        let drained = Locked(false)
        stream.whenDrained { drained.withLock { $0 = true } }
        #expect(!drained.withLock { $0 })
        var received = 0
        for _ in 0..<400 where !drained.withLock({ $0 }) {
            received += rig.received()?.utf8.count ?? 0
            _ = rig.loop.runOnce(timeout: 10)
        }
        #expect(drained.withLock { $0 }, "the waiter ran once the socket had taken everything")
        #expect(stream.unsentBytes == 0)
        let written = Locked(false)
        ResponseStream.broadcast(Array("one event\n".utf8), to: [stream]) { written.withLock { $0 = true } }
        #expect(!written.withLock { $0 }, "written only once the loop has written it")
        let text = rig.serve { $0.contains("one event") }
        #expect(text.contains("one event"))
        #expect(written.withLock { $0 })
        #expect(received + text.utf8.count > 32 * piece.count, "every byte arrived, then the broadcast")
    }

    @Test(.serialized, arguments: EventBackendKind.allCases)  // one `/held/<name>` stream per name at a time
    func aJobsStepsRunOnePerTurn_eachAfterWhatTheLastWroteWasSent(_ backend: EventBackendKind) throws {
        let rig = try Rig(backend)
        let stream = try rig.openHeldStream("steps")
        _ = rig.received()  // the head
        // Each step writes one event and notes what the client had received when it began.
        let client = rig.client
        let seen = Locked<[String]>([])
        let steps = Locked(0)
        LoopExecutor(rig.loop.handle).run {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(client, &buffer, buffer.count)
            seen.withLock { $0.append(count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : "") }
            let step = steps.withLock { steps in
                steps += 1
                return steps
            }
            stream.write("step \(step)\n")
            return step < 3
        }
        #expect(rig.loop.runOnce(timeout: 1_000))
        #expect(steps.withLock { $0 } == 1, "one step per turn of the loop")
        rig.settle()
        #expect(steps.withLock { $0 } == 3)
        let before = seen.withLock { $0 }
        #expect(before.count == 3 && before[0].isEmpty)
        #expect(before[1].contains("step 1") && !before[1].contains("step 2"), "step 1's event was sent before step 2 ran")
        #expect(before[2].contains("step 2"), "step 2's event was sent before step 3 ran")
        #expect(rig.received()?.contains("step 3") == true)
    }
}
