#!/usr/bin/env bash
# test_screenshot.sh BUILD FEDP_TB WORKDIR - screenshot.sh under Xvfb: the fedp view of a
# short fedp_tb waveform becomes a PNG that is valid (signature, chunk CRCs, one IHDR),
# exactly the view's [size] (1600x1000), and shows something (many colours, no single
# colour on 95% of it: an empty or black screen fails); bad usage and a missing waveform
# are errors.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$1 tb=$2 work=$3
rm -rf "$work"; mkdir -p "$work"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$tb" --instance ampere_half --count 300 --random-only --fst "$work/fedp.fst" >"$work/tb.log" 2>&1 \
    || { echo "FAIL: fedp_tb could not write the waveform"; cat "$work/tb.log"; exit 1; }
bash "$here/screenshot.sh" "$build" "$here/fedp.gtkw" "$work/fedp.fst" "$work/fedp.png" \
    || fail "screenshot.sh exited $?"
python3 - "$work/fedp.png" 1600 1000 <<'P' || fail "the PNG check"
import sys, struct, zlib, collections
path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = open(path, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "no PNG signature"
pos, chunks, idat = 8, [], b""
while pos < len(data):
    n, typ = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    crc, = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
    assert zlib.crc32(typ + body) == crc, f"bad CRC in {typ}"
    chunks.append(typ)
    if typ == b"IDAT":
        idat += body
    pos += 12 + n
assert chunks[0] == b"IHDR" and chunks[-1] == b"IEND", chunks
ihdr = data[16:29]
pw, ph, depth, ctype = struct.unpack(">IIBB", ihdr[:10])
assert (pw, ph) == (w, h), f"size {pw}x{ph}, expected {w}x{h}"
assert depth == 8 and ctype == 2, "not 8-bit RGB"
raw = zlib.decompress(idat)
row = 1 + 3 * w
assert len(raw) == row * h, "pixel data of the wrong size"
colours = collections.Counter()
for y in range(0, h, 4):
    line = raw[y * row + 1:(y + 1) * row]
    for x in range(0, 3 * w, 12):
        colours[line[x:x + 3]] += 1
top = colours.most_common(1)[0][1] / sum(colours.values())
assert len(colours) >= 8, f"only {len(colours)} colours"
assert top < 0.95, f"one colour covers {top:.0%}"
print(f"PNG {pw}x{ph}, {len(colours)} colours, largest {top:.0%}")
P
bash "$here/screenshot.sh" "$build" >/dev/null 2>&1; [ $? = 2 ] || fail "no arguments should exit 2"
bash "$here/screenshot.sh" "$build" "$here/fedp.gtkw" "$work/none.fst" "$work/x.png" >/dev/null 2>&1
[ $? = 1 ] && [ ! -e "$work/x.png" ] || fail "a missing waveform should exit 1 and write nothing"
[ "$fails" = 0 ] && echo PASSED || echo "FAILED ($fails)"
[ "$fails" = 0 ]
