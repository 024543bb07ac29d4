import Testing

@Test func LatchkeyCryptoTestsModuleLinks() {
    #expect(Bool(true))
}
