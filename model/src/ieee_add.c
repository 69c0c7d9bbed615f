/* ieee_add.c - tc_add: one IEEE addition of two words of a float format, rounded once
 * (RNE or RZ) by round.h; the fp8 emulation (dot_chain.c) adds c with it. */
#include "tcsim.h"
#include "fmt_table.h"
#include "round.h"

tc_status tc_add(tc_fmt f, uint32_t x, uint32_t y, tc_round r, uint32_t *out)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    if (!out || !fi || fi->cls != TC_CLASS_FLOAT || fi->nan_style != TC_NAN_IEEE ||
        (r != TC_RZ && r != TC_RNE))
        return TC_EINVAL;
    if (!fmt_fits(fi, x) || !fmt_fits(fi, y))
        return TC_EFORMAT;
    int sx, sy, ex, ey;
    uint64_t mx, my;
    tc_value_kind kx = fmt_unpack(fi, x, &sx, &mx, &ex);
    tc_value_kind ky = fmt_unpack(fi, y, &sy, &my, &ey);
    if (kx == TC_VAL_NAN || ky == TC_VAL_NAN ||
        (kx == TC_VAL_INF && ky == TC_VAL_INF && sx != sy)) {
        *out = tc_canonical_nan(f);
        return TC_OK;
    }
    if (kx == TC_VAL_INF || ky == TC_VAL_INF) {
        *out = fmt_inf(f, kx == TC_VAL_INF ? sx : sy);
        return TC_OK;
    }
    if (mx == 0 && my == 0) { /* IEEE: -0 + -0 = -0, any other sum of zeros is +0 */
        *out = fmt_zero(f, sx & sy);
        return TC_OK;
    }
    /* Order by magnitude: the larger, X, keeps GUARD extra low bits; a Y too small to
     * reach them only matters as a sticky unit far below X's half-ulp. */
    enum { GUARD = 38 };
    if (my > mx ? ey >= ex : ey > ex) {
        int ts = sx; sx = sy; sy = ts;
        int te = ex; ex = ey; ey = te;
        uint64_t tm = mx; mx = my; my = tm;
    }
    int dist = ex - ey;
    uint64_t X = mx << GUARD;
    uint64_t Y = my == 0 ? 0 : dist <= GUARD ? my << (GUARD - dist) : 1u;
    uint64_t mag;
    int sign;
    if (sx == sy) {
        mag = X + Y;
        sign = sx;
    } else {
        mag = X - Y; /* X >= Y in magnitude */
        sign = sx;
    }
    if (mag == 0) { /* exact cancellation: +0 in round-to-nearest and toward zero */
        *out = fmt_zero(f, 0);
        return TC_OK;
    }
    round_target t = {f, fi->man_bits, r}; /* an IEEE addition */
    *out = round_pack(&t, sign, mag, ex - (int)fi->man_bits - GUARD, NULL);
    return TC_OK;
}

