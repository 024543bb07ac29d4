import Testing

@Test func LatchkeyAuthTestsModuleLinks() {
    #expect(Bool(true))
}
