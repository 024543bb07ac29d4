// Apple's Security framework names on Linux, over LatchkeyKeychain.
#if os(Linux)
import LatchkeyKeychain
#endif
