import Basics
import Testing

/// What "one per core" counts: the cores the affinity mask allows.
@Suite struct UsableCoresTests {
    @Test func theCoresAreReadFromTheAffinityMask() {
        #expect(UsableCores.count(inStatus: "Name:\tserver\nCpus_allowed:\t1\nCpus_allowed_list:\t0\n") == 1)
        #expect(UsableCores.count(inStatus: "Cpus_allowed:\tff,0000000f\n") == 12)
        #expect(UsableCores.count(inStatus: "Name:\tserver\n") == nil)
        #expect(UsableCores.count >= 1)
    }
}
