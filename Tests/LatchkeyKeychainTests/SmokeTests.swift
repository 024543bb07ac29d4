import Testing

@Test func LatchkeyKeychainTestsModuleLinks() {
    #expect(Bool(true))
}
