#!/bin/sh
# Fuzzes RepeatedLiteralRewriter (header values a client repeats, passed to nghttp2 decoded) and its
# Huffman decoder against nghttp2's own HPACK decoder with libFuzzer for N seconds (default 30).
# Usage: scripts/fuzz-repeated-literals.sh [seconds] [extra libFuzzer flags...]
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-30}"
[ $# -gt 0 ] && shift
mkdir -p .build/fuzz-repeated-literals-corpus
scripts/build-fuzz-modules.sh
swiftc -sanitize=fuzzer,address -parse-as-library -O \
    -I .build/fuzz-modules -L .build/fuzz-modules -lByteCoding -I Sources/CNGHTTP2 \
    Sources/RepeatedLiterals/*.swift Tests/RepeatedLiteralsTests/HTTP2ClientBytes.swift \
    Tests/Fuzz/RepeatedLiteralsFuzz.swift -o .build/fuzz-repeated-literals
# Seeds: a request's header block (a never-indexed provider token and another never-indexed value)
# to be repeated, the same with priority fields, and two such HEADERS frames as a connection's frames.
corpus=.build/fuzz-repeated-literals-corpus
block='\203\207\104\264\141\226\044\057\163\020\254\106\130\313\031\143\054\145\214\261\226\062\306\130\313\031\143\054\145\214\261\226\062\306\130\313\031\143\054\145\214\261\226\062\306\130\313\031\143\054\145\214\261\226\062\377\037\010\351\214\243\260\266\050\137\131\147\217\021\015\250\331\160\360\367\220\072\115\221\031\051\115\177\267\262\071\223\256\134\073\372\351\311\270\034\177\164\137\300\151\166\056\137\131\153\043\072\015\250\331\157\155\340\335\375\330\166\341\331\300\036\162\033\301\207\313\010\062\164\077\235\076\371\203\107\115\001\323\323\140\145\330\271\005\105\121\323\204\022\176\145\243\077\346\232\377\104\334\362\143\343\353\367\147\020\212\362\261\055\102\117\112\325\027\271\154\230\356\072\055\052\311\234\151\130\310\132\203\325\062\305\250\366\315\072\311\072\304\075\265\047'
printf "\101$block" > "$corpus/seed-block"
printf "\145$block" > "$corpus/seed-block-cut"
printf "\141\200\000\000\003\017$block" > "$corpus/seed-block-priority"
printf "\100\000\000\311\001\004\000\000\000\001$block\000\000\311\001\004\000\000\000\003$block" > "$corpus/seed-frames"
exec scripts/run-fuzz-target.sh repeated-literals "$seconds" -max_len=2048 "$@"
