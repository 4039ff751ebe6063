// A load client for live lists: holds many Server-Sent Event streams, optionally writes, and
// reports how long each delta took from its commit (`at`) to its receipt here.
//
//   live-load PORT STREAMS [options]
//     --lists L          distinct lists: orders by date (newest first), 20 rows, over L locale and
//                        time-zone pairs (default 100)
//     --idle-path PATH   streams past the first --lists are opened on PATH (lists no write touches)
//     --writes W         POST /orders W times, --interval ms apart, after all snapshots arrived
//     --interval MS      (default 20)
//     --hold SECONDS     keep the streams open this long after the writes (default 1)
//     --reconnect        close every stream, reopen them all, and time until every snapshot is back
//
// One thread reads every stream (epoll); the writer is a second thread on one keep-alive connection.
// Latency is receipt minus `at` (whole milliseconds, so each sample is ±0.5 ms). Besides its
// percentiles over every delta: per write, when its last delta arrived (`write_last_median`,
// `write_last_90th` over the writes), which compares with the floor's last stream.
import Foundation
import CSystem
import Glibc

let arguments = CommandLine.arguments
guard arguments.count >= 3, let port = UInt16(arguments[1]), let streamCount = Int(arguments[2]) else {
    FileHandle.standardError.write(
        Data("usage: live-load PORT STREAMS [--lists L] [--writes W] [--interval MS] [--hold S] [--idle-path P] [--reconnect]\n".utf8))
    exit(2)
}
func option(_ name: String) -> String? { arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } }
let listCount = Int(option("--lists") ?? "") ?? 100
let writes = Int(option("--writes") ?? "") ?? 0
let interval = Double(option("--interval") ?? "") ?? 20
let hold = Double(option("--hold") ?? "") ?? 1
let idlePath = option("--idle-path")
let reconnects = arguments.contains("--reconnect")

var limit = rlimit()
getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
limit.rlim_cur = limit.rlim_max
setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)

let locales = ["en-US", "de-DE", "fr-FR", "es-ES", "ja-JP"]
let zones = [
    "UTC", "Europe/Berlin", "Europe/Paris", "Europe/Madrid", "Asia/Tokyo", "America/New_York", "America/Chicago", "America/Denver",
    "America/Los_Angeles", "Europe/London", "Europe/Rome", "Europe/Oslo", "Asia/Kolkata", "Asia/Shanghai", "Australia/Sydney",
    "America/Sao_Paulo", "Africa/Cairo", "Europe/Moscow", "Pacific/Auckland", "America/Toronto",
]

func path(forStream index: Int) -> String {
    if index >= listCount, let idlePath { return idlePath }
    let list = index % listCount
    let zone = zones[(list / locales.count) % zones.count].replacingOccurrences(of: "/", with: "%2F")
    return "/orders/live?filter=all&sort=date&order=desc&limit=20&locale=\(locales[list % locales.count])&tz=\(zone)"
}

/// Connects to the server on 127.0.0.1; `from` picks the loopback source address
/// 127.0.x.y (clients that name no session are capped per address: 8 streams each).
@Sendable func connectTo(port: UInt16, from source: Int? = nil) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if let source {
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr("127.0.\(source / 250 % 250).\(source % 250 + 1)")
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(bound == 0, "bind failed: \(errno)")
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    precondition(result == 0, "connect failed: \(errno)")
    return fd
}

@Sendable func sendAll(_ fd: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        precondition(count > 0, "send failed")
        sent += count
    }
}

func nowMilliseconds() -> Double { Date().timeIntervalSince1970 * 1000 }

/// One stream: its socket, unparsed bytes, and whether its first event arrived.
final class Stream {
    var fd: Int32
    var pending: [UInt8] = []
    var hasSnapshot = false
    init(fd: Int32) { self.fd = fd }
}

final class Samples: @unchecked Sendable {
    // Touched only by the polling thread until the end.
    var latencies: [Double] = []
    /// Per write (its commit's `"at":`), when its last delta arrived: a write's whole spread,
    /// the figure that compares with the floor's last stream.
    var lastByCommit: [Int: Double] = [:]
    var snapshots = 0
    /// Streams of the current set whose first event (snapshot or reset) arrived.
    var streamsWithSnapshot = 0
    var deltas = 0
    var resets = 0
}

let samples = Samples()

func open(_ index: Int) -> Stream {
    let stream = Stream(fd: connectTo(port: port, from: index / 4))  // 4 streams per source address
    sendAll(stream.fd, "GET \(path(forStream: index)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    return stream
}

/// The stream's first snapshot or reset arrived: it counts as ready once.
func markReady(_ stream: Stream) {
    guard !stream.hasSnapshot else { return }
    stream.hasSnapshot = true
    samples.streamsWithSnapshot += 1
}

/// Reads what arrived on `stream`, counting events and a latency per delta. The bytes are parsed
/// where `recv` put them (only an unfinished event's tail is kept for the next read), and
/// searched with `memchr`: the client's own reading should cost little beside the kernel's, as the
/// floor's reader (which parses nothing) does.
func drain(_ stream: Stream, buffer: inout [UInt8]) {
    let kept = stream.pending.count
    if kept * 2 > buffer.count { buffer = [UInt8](repeating: 0, count: kept * 4) }  // an event past half the buffer
    buffer.withUnsafeMutableBytes { raw in
        guard let base = raw.baseAddress else { return }
        if kept > 0 { stream.pending.withUnsafeBytes { raw.copyMemory(from: $0) } }
        let count = recv(stream.fd, base + kept, raw.count - kept, Int32(MSG_DONTWAIT))
        guard count > 0 else { return }
        let received = nowMilliseconds()
        let end = UnsafeRawPointer(base + kept + count)
        var start = UnsafeRawPointer(base)
        while let boundary = find("\n\n", in: start, upTo: end) {
            record(UnsafeRawBufferPointer(start: start, count: boundary - start), stream: stream, received: received)
            start = boundary + 2
        }
        stream.pending = Array(UnsafeRawBufferPointer(start: start, count: end - start))
    }
}

/// Counts one event (the bytes before its blank line): a snapshot or reset readies its stream,
/// a delta adds its latency from its commit (`"at":` whole milliseconds).
func record(_ block: UnsafeRawBufferPointer, stream: Stream, received: Double) {
    guard let base = block.baseAddress, let name = find("event: ", in: base, upTo: base + block.count) else { return }
    let end = base + block.count
    guard name + 7 < end else { return }
    switch name.load(fromByteOffset: 7, as: UInt8.self) {
    case UInt8(ascii: "s"):
        markReady(stream)
        samples.snapshots += 1
    case UInt8(ascii: "r"):
        markReady(stream)
        samples.resets += 1
    case UInt8(ascii: "d"):
        guard var digit = find(#""at":"#, in: name, upTo: end).map({ $0 + 5 }) else { return }
        var value = 0.0
        while digit < end {
            let byte = digit.load(as: UInt8.self)
            guard byte >= 0x30 && byte <= 0x39 else { break }
            value = value * 10 + Double(byte - 0x30)
            digit += 1
        }
        samples.deltas += 1
        let latency = received - value
        samples.latencies.append(latency)
        raise(&samples.lastByCommit[Int(value), default: 0], to: latency)  // one lookup, changed in place
    default: break
    }
}

func raise(_ value: inout Double, to floor: Double) { value = max(value, floor) }

/// Where `needle` first occurs in the bytes from `start` up to `end` (`memchr` for its first
/// byte, then `memcmp`).
func find(_ needle: StaticString, in start: UnsafeRawPointer, upTo end: UnsafeRawPointer) -> UnsafeRawPointer? {
    let length = needle.utf8CodeUnitCount
    var from = start
    while end - from >= length, let candidate = memchr(from, Int32(needle.utf8Start.pointee), end - from - length + 1) {
        if memcmp(candidate, needle.utf8Start, length) == 0 { return UnsafeRawPointer(candidate) }
        from = UnsafeRawPointer(candidate) + 1
    }
    return nil
}

/// Reads every stream that has data until `isDone` or `timeout` seconds: epoll, so a wait costs
/// what is ready, not a look at every stream (events that arrive a few at a time would
/// otherwise cost a scan of all of them each, and the client would fall behind the server).
func readStreams(_ streams: [Stream], until isDone: () -> Bool, timeout: Double) {
    // A stream not watched would never be read: its latencies missing, not slow.
    func fail() -> Never {
        FileHandle.standardError.write(Data("live-load: epoll: \(String(cString: strerror(errno)))\n".utf8))
        exit(1)
    }
    let epollFD = epoll_create1(0)
    guard epollFD >= 0 else { fail() }
    defer { close(epollFD) }
    for (index, stream) in streams.enumerated() {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = UInt64(index)
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, stream.fd, &event) == 0 else { fail() }
    }
    var ready = [epoll_event](repeating: epoll_event(), count: 1024)
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let deadline = nowMilliseconds() + timeout * 1000
    while !isDone() && nowMilliseconds() < deadline {
        let count = epoll_wait(epollFD, &ready, Int32(ready.count), 50)
        for index in 0..<Int(max(0, count)) { drain(streams[Int(ready[index].data.u64)], buffer: &buffer) }
    }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
}

let started = nowMilliseconds()
var streams = (0..<streamCount).map(open)
// Counted as they arrive: a look at every stream after each wait would cost what epoll saves.
readStreams(streams, until: { samples.streamsWithSnapshot == streamCount }, timeout: 60)
print(String(format: "streams=%d snapshots=%d opened_in_ms=%.0f", streamCount, samples.snapshots, nowMilliseconds() - started))

if reconnects {
    for stream in streams { close(stream.fd) }
    let again = nowMilliseconds()
    samples.streamsWithSnapshot = 0
    streams = (0..<streamCount).map(open)
    readStreams(streams, until: { samples.streamsWithSnapshot == streamCount }, timeout: 60)
    print(String(format: "reconnected=%d all_snapshots_in_ms=%.0f", streams.filter(\.hasSnapshot).count, nowMilliseconds() - again))
}

if writes > 0 {
    let writer = Thread {
        let fd = connectTo(port: port)
        let body =
            #"{"customerName":"Live Load","currency":"EUR","items":[{"name":"Mug","quantity":1,"unitPrice":12.5,"requiresSignature":false}],"shippingAddress":{"street":"1 Main St","city":"Oslo","postalCode":"0150","country":"NO","isResidential":false}}"#
        var buffer = [UInt8](repeating: 0, count: 16_384)
        for _ in 0..<writes {
            sendAll(
                fd,
                "POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            )
            _ = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }  // the answer (small) in one read
            usleep(useconds_t(interval * 1000))
        }
        close(fd)
    }
    writer.start()
}
readStreams(streams, until: { false }, timeout: Double(writes) * interval / 1000 + hold)
let sorted = samples.latencies.sorted()
let lasts = samples.lastByCommit.values.sorted()
print(
    String(
        format: "writes=%d deltas=%d resets=%d latency_ms p50=%.2f p90=%.2f p99=%.2f max=%.2f write_last_median=%.2f write_last_90th=%.2f",
        writes, samples.deltas, samples.resets, percentile(sorted, 0.5), percentile(sorted, 0.9), percentile(sorted, 0.99),
        sorted.last ?? .nan, percentile(lasts, 0.5), percentile(lasts, 0.9)))
