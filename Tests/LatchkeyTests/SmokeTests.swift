import Testing

@Test func LatchkeyTestsModuleLinks() {
    #expect(Bool(true))
}
