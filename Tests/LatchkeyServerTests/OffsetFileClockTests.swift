import Foundation
import LatchkeyTestSupport
import LatchkeyServer
import Testing

/// `latchkey serve --clock-offset-file`: the clock tests of a server in another process move instead of sleeping.
@Suite(.offCooperativePool) struct OffsetFileClockTests {
    @Test func theClockRunsAheadByTheSecondsTheFileHoldsReadAgainWhenItChanges() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-clock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("offset")
        let base = ManualClock()
        let clock = OffsetFileClock(path: file.path, base: base)
        #expect(clock.offset == 0 && clock.now() == base.now(), "no file: no offset")

        try Data("301\n".utf8).write(to: file, options: .atomic)
        #expect(clock.offset == 301 && clock.seconds == base.seconds + 301)
        base.advance(by: 5)
        #expect(clock.seconds == base.seconds + 301, "the base clock still moves")

        try Data("602".utf8).write(to: file, options: .atomic)
        #expect(clock.offset == 602)
        try Data("-7".utf8).write(to: file, options: .atomic)
        #expect(clock.offset == -7, "back in time too")
        try Data("half a write".utf8).write(to: file, options: .atomic)
        #expect(clock.offset == -7, "a file that does not parse keeps the offset read before")
        try FileManager.default.removeItem(at: file)
        #expect(clock.offset == 0)
    }
}
