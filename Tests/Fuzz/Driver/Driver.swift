import Foundation
import LatchkeyFuzzTargets

// The libFuzzer driver: one binary for every target, chosen by LATCHKEY_FUZZ_TARGET (scripts/fuzz.sh sets it).
// With LATCHKEY_FUZZ_SEEDS=<dir> it writes every target's seeds to <dir>/<target>/ and exits.
//
// SwiftPM links an executable with `main` defined as `<module>_main`, so libFuzzer's own `main` is not used:
// `latchkey_fuzz_main` hands the command line to libFuzzer's documented entry, LLVMFuzzerRunDriver.

let selectedTarget: FuzzTarget? = ProcessInfo.processInfo.environment["LATCHKEY_FUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:))

@_cdecl("LLVMFuzzerInitialize")
public func latchkeyFuzzInitialize(_ argc: UnsafeMutablePointer<Int32>?,
                                   _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32 {
    if let directory = ProcessInfo.processInfo.environment["LATCHKEY_FUZZ_SEEDS"] {
        writeSeeds(to: URL(fileURLWithPath: directory, isDirectory: true))
        exit(0)
    }
    guard selectedTarget != nil else {
        let names = FuzzTarget.allCases.map(\.name).joined(separator: ", ")
        report("set LATCHKEY_FUZZ_TARGET to one of: \(names)")
        exit(2)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func latchkeyFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let target = selectedTarget else { return 0 }
    let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
    do {
        try target.run(bytes)
    } catch {
        // A broken property is a finding like a crash: libFuzzer saves the input on abort.
        report(error.description)
        abort()
    }
    return 0
}

func writeSeeds(to directory: URL) {
    for target in FuzzTarget.allCases {
        let folder = directory.appendingPathComponent(target.name, isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (index, seed) in target.seeds().enumerated() {
            let file = folder.appendingPathComponent(String(format: "seed-%02d", index))
            if !FileManager.default.fileExists(atPath: file.path) { _ = FileManager.default.createFile(atPath: file.path, contents: seed) }
        }
    }
}

func report(_ message: String) {
    FileHandle.standardError.write(Data("latchkey-fuzz: \(message)\n".utf8))
}

@_silgen_name("LLVMFuzzerRunDriver")
func runLibFuzzer(_ argc: UnsafeMutablePointer<Int32>,
                  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

@_cdecl("latchkey_fuzz_main")
public func latchkeyFuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runLibFuzzer(&count, &arguments, latchkeyFuzzOneInput)
}
