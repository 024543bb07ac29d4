#!/usr/bin/env python3
"""replace-doc-section.py DOC TABLE NAME: puts the text of the file TABLE (which begins with `<!-- NAME:begin` and
ends with `<!-- NAME:end -->`) in place of that section of DOC, or at DOC's end when DOC has none. Used by the scripts
that write their results into docs/RELIABILITY.md (fuzz.sh, soak.sh, powercut.sh)."""
import re
import sys

doc, table, name = sys.argv[1], open(sys.argv[2]).read().rstrip("\n"), sys.argv[3]
text = open(doc).read()
pattern = re.compile(rf"<!-- {re.escape(name)}:begin.*?<!-- {re.escape(name)}:end -->", re.S)
text = pattern.sub(lambda _: table, text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + table + "\n"
open(doc, "w").write(text)
