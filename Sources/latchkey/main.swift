import Foundation
import Latchkey

print("latchkey — see `latchkey help`")
