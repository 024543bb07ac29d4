import Testing

@Test func LatchkeyServerTestsModuleLinks() {
    #expect(Bool(true))
}
