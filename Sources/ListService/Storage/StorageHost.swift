/// What storage may ask of the service whose changes it keeps: work run on the writer queue
/// (where every append runs, one at a time), the engines a snapshot takes its items from, and
/// the id sequences and answers a compaction records. The write coordinator is the host; storage never
/// names it, and calls go one way: the coordinator calls storage, storage calls only this.
package protocol StorageHost: AnyObject, Sendable {
    /// Runs `body` on the writer queue, after what is queued there already.
    func onWriterQueue(_ body: @escaping @Sendable () -> Void)

    /// Runs `body` on the writer queue and waits for it.
    func onWriterQueueAndWait(_ body: () -> Void)

    /// Every collection's engine.
    var engines: Engines { get }

    /// The highest id sequence each collection gave out (read on the writer queue).
    var sequences: [String: Int] { get }

    /// The keyed writes' answers (a compaction saves those its journal kept).
    var answers: AnswerLedger { get }
}
