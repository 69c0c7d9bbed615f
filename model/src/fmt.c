/* fmt.c - the format table (one row per tc_fmt) and the helpers over it.
 *
 * The table itself is in fmt_table.h (the hot loops need it inlined).
 */
#include <string.h>
#include "tcsim.h"
#include "fmt_table.h"
#include "round.h"


const tc_fmt_info *tc_fmt_get(tc_fmt f)
{
    /* a code without a row (one appended on another branch, not yet here) is no format */
    return ((unsigned)f < TC_FMT_COUNT && fmt_table[f].name) ? &fmt_table[f] : NULL;
}

tc_status tc_fmt_parse(const char *name, tc_fmt *out)
{
    if (!name || !out)
        return TC_EINVAL;
    for (unsigned f = 0; f < TC_FMT_COUNT; f++)
        if (fmt_table[f].name && !strcmp(name, fmt_table[f].name)) {
            *out = (tc_fmt)f;
            return TC_OK;
        }
    return TC_EFORMAT;
}

tc_status tc_decode(tc_fmt f, uint32_t bits, tc_value *out)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    if (!fi || !out || fi->cls == TC_CLASS_INT)
        return fi && out ? TC_EFORMAT : TC_EINVAL;
    if (!fmt_fits(fi, bits))
        return TC_EFORMAT;
    tc_value v = {0};
    uint64_t sig = 0;
    int exp = fi->emin;
    v.kind = fmt_unpack(fi, bits, &v.sign, &sig, &exp);
    v.sig = v.kind == TC_VAL_FINITE ? sig : 0;
    v.exp = v.kind == TC_VAL_FINITE ? exp : 0;
    *out = v;
    return TC_OK;
}

uint32_t tc_canonical_nan(tc_fmt f)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    if (!fi || fi->cls == TC_CLASS_INT || fmt_is_wide(f))
        return 0; /* fp64's is TC_F64_NAN, wider than the word */
    /* every bit but the sign: fp32 0x7fffffff, fp16 0x7fff (docs/contract.md) */
    return (fi->width >= 32 ? 0xffffffffu : ((1u << fi->width) - 1u)) >> 1;
}

tc_status tc_int_value(tc_fmt f, uint32_t bits, int32_t *out)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    if (!fi || fi->cls != TC_CLASS_INT || !fmt_fits(fi, bits))
        return TC_EFORMAT;
    *out = fmt_int_value(fi, bits);
    return TC_OK;
}

tc_status tc_int_pattern(tc_fmt f, int64_t value, uint32_t *out)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    if (!fi || fi->cls != TC_CLASS_INT)
        return TC_EFORMAT;
    int64_t lo = fi->is_signed ? -((int64_t)1 << (fi->width - 1)) : 0;
    int64_t hi = fi->is_signed ? ((int64_t)1 << (fi->width - 1)) - 1 : ((int64_t)1 << fi->width) - 1;
    if (value < lo || value > hi)
        return TC_EINVAL;
    *out = fi->width >= 32 ? (uint32_t)value : (uint32_t)value & ((1u << fi->width) - 1u);
    return TC_OK;
}

/* Shared by the two conversions: rounds the value of (from, bits) into `to`. */
static tc_status convert(tc_fmt from, uint32_t bits, tc_fmt to, tc_round mode, int exact,
                         uint32_t *out)
{
    const tc_fmt_info *ti = tc_fmt_get(to);
    tc_value v;
    tc_status st = tc_decode(from, bits, &v);
    if (st != TC_OK)
        return st;
    if (fmt_is_wide(to))
        return TC_EFORMAT; /* fp64 patterns do not fit the word (tcsim_f64.h) */
    if (!out || !ti || ti->cls != TC_CLASS_FLOAT || ti->nan_style != TC_NAN_IEEE)
        return TC_EINVAL; /* targets are the IEEE formats (fp32, fp16, bf16, tf32) */
    if (v.kind == TC_VAL_NAN) {
        *out = tc_canonical_nan(to);
        return TC_OK;
    }
    if (v.kind == TC_VAL_INF) {
        *out = fmt_inf(to, v.sign);
        return TC_OK;
    }
    const tc_fmt_info *fi = tc_fmt_get(from);
    round_target t = {to, ti->man_bits, mode}; /* a conversion: IEEE */
    int inexact = 0;
    uint32_t r = round_pack(&t, v.sign, v.sig, v.exp - (int)fi->man_bits, &inexact);
    if (exact && inexact)
        return TC_EINVAL;
    *out = r;
    return TC_OK;
}

tc_status tc_convert_exact(tc_fmt from, uint32_t bits, tc_fmt to, uint32_t *out)
{
    return convert(from, bits, to, TC_RNE, 1, out);
}

tc_status tc_convert_rne(tc_fmt from, uint32_t bits, tc_fmt to, uint32_t *out)
{
    return convert(from, bits, to, TC_RNE, 0, out);
}
