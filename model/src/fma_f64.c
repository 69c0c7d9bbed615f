/* fma_f64.c - one binary64 fused multiply-add on integers (no libm: the tests hold it
 * against the C library's fma() and against GMP/MPFR, which must stay independent).
 *
 * The exact sum a*b + c is formed in a 128-bit window: the larger of the two terms is
 * placed with its leading bit at WIN_TOP, the smaller aligned to it, and any of its bits
 * that fall below the window are ORed into the window's lowest bit (sticky). The window
 * keeps at least 125 - 53 = 72 bits below the leading bit of the larger term, so a sum
 * that cancels deeply comes only from terms close in exponent, which both fit exactly;
 * when bits are lost the sum keeps far more than the 53 + 2 bits rounding needs, and the
 * sticky bit decides ties and halfway cases as the exact value would. */
#include "fma_f64.h"

#define F64_FRAC_BITS 52
#define F64_EXP_MASK 0x7ffu
#define F64_BIAS 1023
#define F64_EMIN (-1022)       /* exponent of the smallest normal */
#define F64_QMIN (-1074)       /* exponent of a subnormal's last bit */
#define F64_NAN UINT64_C(0x7fffffffffffffff)
#define F64_INF UINT64_C(0x7ff0000000000000)
#define WIN_TOP 125            /* leading bit of the larger term; 2 bits spare for carry */

typedef unsigned __int128 u128;

typedef enum { V_ZERO, V_FINITE, V_INF, V_NAN } vclass;

/* value = sig * 2^exp (sig an integer of at most 53 bits). */
typedef struct unpacked {
    vclass cls;
    int sign;
    uint64_t sig;
    int exp;
} unpacked;

static unpacked unpack(uint64_t x)
{
    unpacked u = {V_FINITE, (int)(x >> 63), x & ((UINT64_C(1) << F64_FRAC_BITS) - 1), 0};
    unsigned ef = (unsigned)(x >> F64_FRAC_BITS) & F64_EXP_MASK;
    if (ef == F64_EXP_MASK)
        u.cls = u.sig ? V_NAN : V_INF;
    else if (ef == 0) {
        u.cls = u.sig ? V_FINITE : V_ZERO;
        u.exp = F64_QMIN;
    } else {
        u.sig |= UINT64_C(1) << F64_FRAC_BITS;
        u.exp = (int)ef - F64_BIAS - F64_FRAC_BITS;
    }
    return u;
}

static int bit_length(u128 x)
{
    int n = 0;
    uint64_t hi = (uint64_t)(x >> 64);
    if (hi)
        return 64 + (64 - __builtin_clzll(hi));
    uint64_t lo = (uint64_t)x;
    if (lo)
        n = 64 - __builtin_clzll(lo);
    return n;
}

/* x shifted right by s, the bits shifted out ORed into the result's lowest bit. */
static u128 shift_right_jam(u128 x, int s)
{
    if (s <= 0)
        return x;
    if (s >= 128)
        return x != 0;
    return (x >> s) | ((x & (((u128)1 << s) - 1)) != 0);
}

/* The nonzero value r * 2^e (r's lowest bit may be a sticky bit) rounded to binary64,
 * nearest even: subnormal below 2^F64_EMIN, Inf past the largest finite. */
static uint64_t round_pack(int sign, u128 r, int e)
{
    int top = e + bit_length(r) - 1;               /* exponent of the leading bit */
    int q = top < F64_EMIN ? F64_QMIN : top - F64_FRAC_BITS; /* exponent of the last bit */
    uint64_t s = (uint64_t)sign << 63;
    uint64_t m;
    if (q <= e) {
        m = (uint64_t)(r << (e - q));              /* exact: fewer than 53 bits */
    } else {
        int sh = q - e;
        u128 keep = sh >= 128 ? 0 : r >> sh;
        u128 rest = sh >= 128 ? r : r & (((u128)1 << sh) - 1);
        u128 half = sh > 128 ? 0 : (u128)1 << (sh - 1);
        m = (uint64_t)keep;
        if (sh <= 128 && (rest > half || (rest == half && (m & 1))))
            m++;
        if (m >> (F64_FRAC_BITS + 1)) {            /* rounded up to the next binade */
            m >>= 1;
            q++;
        }
    }
    if (m >> F64_FRAC_BITS == 0)                   /* subnormal (or rounded to zero) */
        return s | m;
    int ef = q + F64_FRAC_BITS + F64_BIAS;
    if (ef >= (int)F64_EXP_MASK)
        return s | F64_INF;
    return s | ((uint64_t)ef << F64_FRAC_BITS) | (m & ((UINT64_C(1) << F64_FRAC_BITS) - 1));
}

uint64_t tc_fma_f64(uint64_t a, uint64_t b, uint64_t c)
{
    unpacked x = unpack(a), y = unpack(b), z = unpack(c);
    int ps = x.sign ^ y.sign;
    if (x.cls == V_NAN || y.cls == V_NAN || z.cls == V_NAN)
        return F64_NAN;
    if ((x.cls == V_INF && y.cls == V_ZERO) || (x.cls == V_ZERO && y.cls == V_INF))
        return F64_NAN;                            /* Inf * 0 */
    if (x.cls == V_INF || y.cls == V_INF) {
        if (z.cls == V_INF && z.sign != ps)
            return F64_NAN;                        /* Inf - Inf */
        return ((uint64_t)ps << 63) | F64_INF;
    }
    if (z.cls == V_INF)
        return c;
    if (x.cls == V_ZERO || y.cls == V_ZERO) {
        if (z.cls != V_ZERO)
            return c;                              /* 0 + c is c exactly */
        return (uint64_t)(ps & z.sign) << 63;      /* +0 unless both zeros are -0 */
    }
    u128 p = (u128)x.sig * y.sig;                  /* exact: at most 106 bits */
    int pe = x.exp + y.exp;
    if (z.cls == V_ZERO)
        return round_pack(ps, p, pe);
    /* the window: the larger term's leading bit at WIN_TOP */
    u128 zc = z.sig;
    int ptop = pe + bit_length(p) - 1, ztop = z.exp + bit_length(zc) - 1;
    int wl = (ptop > ztop ? ptop : ztop) - WIN_TOP; /* exponent of the window's bit 0 */
    u128 pw = pe >= wl ? p << (pe - wl) : shift_right_jam(p, wl - pe);
    u128 zw = z.exp >= wl ? zc << (z.exp - wl) : shift_right_jam(zc, wl - z.exp);
    if (ps == z.sign)
        return round_pack(ps, pw + zw, wl);
    if (pw == zw)
        return 0;                                  /* exact cancellation: +0 */
    return pw > zw ? round_pack(ps, pw - zw, wl) : round_pack(z.sign, zw - pw, wl);
}
