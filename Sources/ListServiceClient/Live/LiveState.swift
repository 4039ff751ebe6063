/// Where a live list stands.
public enum LiveState: Sendable, Equatable {
    /// The problem details of a refusal (the error every request throws).
    public typealias Problem = ListServiceError

    /// Opening its stream, or waiting for its first snapshot.
    case connecting
    /// Every window has its snapshot and follows the changes.
    case live
    /// The stream dropped; it is being opened again (the rows shown are the last known).
    case reconnecting
    /// Refused for good (a bad parameter, no access); the problem says why.
    case failed(Problem)
}
