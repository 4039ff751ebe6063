import Glibc

/// A failed system call, with its name and errno.
public struct SocketError: Error, CustomStringConvertible, Sendable {
    public let call: String
    public let errno: Int32

    public init(_ call: String, errno: Int32 = Glibc.errno) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call) failed: \(String(cString: strerror(errno))) (errno \(errno))" }
}
