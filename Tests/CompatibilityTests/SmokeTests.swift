import Testing

@Test func CompatibilityTestsModuleLinks() {
    #expect(Bool(true))
}
