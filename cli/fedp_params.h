/* fedp_params.h - the parameter sets of the RTL's FEDP instances, read from the model's
 * profile table: the one definition behind `tcsim emit-pkg` (the presets it writes into
 * rtl/tc_pkg.sv, which RTL defaults, testbench tops and CMake read) and `tcsim
 * fedp-params` (synth/synth.py's sets, presets or ad-hoc specs). */
#ifndef TCSIM_CLI_FEDP_PARAMS_H
#define TCSIM_CLI_FEDP_PARAMS_H

#include <stddef.h>
#include <stdint.h>

/* The parameters of one rtl/fedp.sv (or fedp_grouped.sv) instance, in the order of the
 * fields of a `tcsim fedp-params` line and of the FEDP_<PRESET>_* localparams. */
typedef struct fedp_params {
    unsigned L, F;
    uint32_t in_fmts, out_fmts;   /* bit f: tc_fmt code f */
    int emin_align_fp32, emin_align_fp16;  /* TC_EMIN_ALIGN_NONE: no floor */
    unsigned fp32_man_bits;
    uint32_t scale_fmts;          /* 0: a plain step */
    unsigned zero_plus_fp16;      /* 1: an fp16 result rounding to zero is +0 (zero_plus) */
    unsigned in_pairs;            /* 1: b has a format select of its own (mixed-pair rows) */
} fedp_params;

enum { FEDP_PARAM_COUNT = 10 };
/* The fields as the RTL names its parameters ("L", "InFmts", ...) and as the package
 * spells them after FEDP_<PRESET>_ ("L", "IN_FMTS", ...); fedp_param_get reads one. */
extern const char *const fedp_param_rtl_name[FEDP_PARAM_COUNT];
extern const char *const fedp_param_pkg_name[FEDP_PARAM_COUNT];
long fedp_param_get(const fedp_params *p, int k);

/* A named parameter set: one per instance family of the RTL (tb/fedp's instances, the
 * units of tc_blackwell.sv and tc_warp.sv), with the spec it is read from. */
typedef struct fedp_preset {
    const char *name;   /* "volta_fp16", ...: FEDP_VOLTA_FP16_* in tc_pkg */
    const char *spec;   /* "arch:instr:fmt[,fmt...][:kind,...]", see fedp_params_of */
    const char *what;   /* who uses it, for the package's comment */
} fedp_preset;
size_t fedp_presets(const fedp_preset **list);
const fedp_preset *fedp_preset_find(const char *name);

/* The parameter set of spec "arch:instr:fmt[,fmt...][:kind[,kind...]]", built from the
 * FEDP rows of (arch, instr, fmt, fp32/fp16), or of (arch, instr, fmt, out) alone for a
 * format written "fmt->out" (an instance without the other output's rounder), the mixed
 * pairs (a in one of the formats, b in another) of those outputs (in_pairs = 1), and, for
 * each block-scaled kind named (mxf8f6f4, mxf4, mxf4nvf4), its rows of every scale
 * format. fmt "-" names no plain rows (an instance of mxf4 rows: fedp_grouped.sv). The
 * rows must agree on every parameter, or the instance is not one datapath: that, an
 * unknown name or a missing row returns -1 with the reason in err; else 0. */
int fedp_params_of(const char *spec, fedp_params *out, char *err, size_t cap);

#endif
