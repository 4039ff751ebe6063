// libFuzzer driver for ListService's parsers. Built only by scripts/fuzz.sh, with
// `-sanitize=fuzzer,address -DFUZZING`; a plain `swift build` compiles the stub below.
// FUZZ_TARGET picks the target (see FuzzTargets.all); each checks invariants, not only "no crash".
#if FUZZING
    import Glibc

    typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // libFuzzer's C entry point, by its C name.
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: FuzzCallback
    ) -> CInt

    guard let name = getenv("FUZZ_TARGET").map({ String(cString: $0) }), FuzzTargets.all[name] != nil else {
        print("fuzz: set FUZZ_TARGET to one of \(FuzzTargets.all.keys.sorted().joined(separator: ", "))")
        exit(2)
    }
    var fuzzArgc = CommandLine.argc
    var fuzzArgv = CommandLine.unsafeArgv
    exit(
        LLVMFuzzerRunDriver(&fuzzArgc, &fuzzArgv) { data, size in
            guard let data, let name = getenv("FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTargets.all[name] else {
                return 0
            }
            target(Array(UnsafeBufferPointer(start: data, count: size)))
            return 0
        })
#else
    print("fuzz: build it with scripts/fuzz.sh (libFuzzer and AddressSanitizer)")
#endif
