#!/bin/sh
# Builds the HTTP/1 parser fuzz target from the parser sources (and the header list it fills) alone
# and runs it.
# Usage: scripts/fuzz-http1.sh [seconds] [extra libFuzzer flags...]; crashes are written to .build/fuzz-http1-artifacts/.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-30}
[ $# -gt 0 ] && shift
mkdir -p .build/fuzz-http1-corpus
scripts/build-fuzz-modules.sh
swiftc -sanitize=fuzzer,address -parse-as-library -O \
    -I .build/fuzz-modules -L .build/fuzz-modules -lByteCoding -lLocking \
    Sources/HTTPServer/HTTP1/HTTP1Parser*.swift Sources/HTTPServer/HTTP1/HTTP1RequestHead.swift \
    Sources/HTTPServer/Messages/HTTPHeaders.swift Sources/HTTPServer/Messages/HTTPHeaderFieldBytes.swift \
    Sources/HTTPServer/Messages/HTTPHeadersIterator.swift Sources/HTTPServer/Messages/BytesEqualLiteral.swift \
    Tests/Fuzz/HTTP1ParserFuzz.swift -o .build/fuzz-http1
# Seeds: the first byte of each is the split position.
seed() { printf "$2" > ".build/fuzz-http1-corpus/$1"; }
seed get '\200GET /v1/x?y=1 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n'
seed post '\100POST /s HTTP/1.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\nhelloGET / HTTP/1.0\r\n\r\n'
seed chunked '\060POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\r\nhello\r\n0\r\nT: v\r\n\r\n'
seed h2c '\220GET / HTTP/1.1\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAARAAAAA\r\n\r\nPRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'
seed absolute '\030GET hTTps://h:9/p?q HTTP/1.1\r\nHost: x\r\n\r\nGET http://h HTTP/1.0\r\n\r\n'
# Words of the grammar, so mutations reach framing and upgrade logic quickly.
cat > .build/fuzz-http1.dict <<'DICT'
"http://"
"https://"
"\x0D\x0A"
"\x0D\x0A\x0D\x0A"
" HTTP/1.1\x0D\x0A"
" HTTP/1.0\x0D\x0A"
"GET / "
"POST / "
"Content-Length: "
"Transfer-Encoding: "
"chunked"
"Connection: "
"keep-alive"
"close"
"Upgrade: h2c\x0D\x0A"
"HTTP2-Settings: "
"Expect: 100-continue\x0D\x0A"
"Host: h\x0D\x0A"
";ext=1"
"0\x0D\x0A\x0D\x0A"
DICT
exec scripts/run-fuzz-target.sh http1 "$seconds" -dict=.build/fuzz-http1.dict "$@"
