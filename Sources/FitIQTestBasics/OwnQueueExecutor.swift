import Foundation

/// Runs the jobs of the tasks that prefer it on a dispatch queue of its own, not on the task pool: a
/// server run in the test process (the development server, a hostile one) answers while the tests beside it keep the pool's threads (two on two
/// cores) busy, as a server in a process of its own would.
public final class OwnQueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    public init(label: String = "fitiq-test-server-\(UUID().uuidString)") {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
