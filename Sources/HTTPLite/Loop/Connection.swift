/// One client connection: its socket, its state machine and the stream it may be sending.
/// Owned by exactly one event loop and touched only on its thread, so it needs no locking.
final class Connection {
    let key: ConnectionKey
    var fd: Int32 { key.fd }
    // Unchecked exclusivity: only its loop's thread touches a connection, and an event holds
    // its machine in one `inout` access from start to end (see `EventLoop`).
    @exclusivity(unchecked) var machine: ConnectionStateMachine
    /// The streaming response in progress, marked closed when it ends or the connection goes.
    @exclusivity(unchecked) var stream: ResponseStream?
    /// Closed by its loop (no longer among its connections).
    var isClosed = false
    /// Output was added by tasks the loop is running; it writes once they are all taken.
    var awaitsWrite = false

    init(key: ConnectionKey, machine: ConnectionStateMachine) {
        self.key = key
        self.machine = machine
    }
}
