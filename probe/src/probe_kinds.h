/* probe_kinds.h - the kernels' kinds: one number per instruction form, shared by the
 * host's mapping of a form (probe_forms.c) and the CUDA kernels that run it
 * (cuda/probe_device.cu), so that the two cannot disagree.
 *
 * PK_MMA_FORMS lists every mma.sync and mma.sp form the kernels run, once: X(kind,
 * sparse, m, n, k, in, inb, acc, op, regs, types, sm). `in` and `inb` are A's and B's
 * formats (tc_fmt names without TC_FMT_; they differ in issue 33's pairs), `acc` the
 * accumulator's, `op` the b1 forms' popc op (AND, XOR; NONE for the others). `regs`
 * names the register counts of A, B and C/D per lane (the PTX ISA's fragments: A4B2C4
 * is four A, two B and four C/D registers; SP_ for mma.sp, whose metadata register
 * follows), `types` the shape and types after the opcode, sm the first target that has
 * it (x10, as __CUDA_ARCH__). mma.sp's k counts A's columns before compression. */
#ifndef TCSIM_PROBE_KINDS_H
#define TCSIM_PROBE_KINDS_H

#define PK_MMA_FORMS(X) \
    X(PK_MMA_F16_F32, 0, 16, 8, 16, FP16, FP16, FP32, NONE, A4B2C4, "m16n8k16.row.col.f32.f16.f16.f32", 800) \
    X(PK_MMA_F16_F16, 0, 16, 8, 16, FP16, FP16, FP16, NONE, A4B2C2, "m16n8k16.row.col.f16.f16.f16.f16", 800) \
    X(PK_MMA_BF16_F32, 0, 16, 8, 16, BF16, BF16, FP32, NONE, A4B2C4, "m16n8k16.row.col.f32.bf16.bf16.f32", 800) \
    X(PK_MMA_TF32_F32, 0, 16, 8, 8, TF32, TF32, FP32, NONE, A4B2C4, "m16n8k8.row.col.f32.tf32.tf32.f32", 800) \
    X(PK_MMA_E4M3_F32, 0, 16, 8, 32, E4M3, E4M3, FP32, NONE, A4B2C4, "m16n8k32.row.col.f32.e4m3.e4m3.f32", 890) \
    X(PK_MMA_E5M2_F32, 0, 16, 8, 32, E5M2, E5M2, FP32, NONE, A4B2C4, "m16n8k32.row.col.f32.e5m2.e5m2.f32", 890) \
    X(PK_MMA_S8_S32, 0, 16, 8, 32, INT8, INT8, S32, NONE, A4B2C4, "m16n8k32.row.col.s32.s8.s8.s32", 800) \
    X(PK_MMA_U8_S32, 0, 16, 8, 32, UINT8, UINT8, S32, NONE, A4B2C4, "m16n8k32.row.col.s32.u8.u8.s32", 800) \
    X(PK_MMA_F16_F32_K8, 0, 16, 8, 8, FP16, FP16, FP32, NONE, A2B1C4, "m16n8k8.row.col.f32.f16.f16.f32", 750) \
    X(PK_MMA_F16_F16_K8, 0, 16, 8, 8, FP16, FP16, FP16, NONE, A2B1C2, "m16n8k8.row.col.f16.f16.f16.f16", 750) \
    X(PK_MMA_BF16_F32_K8, 0, 16, 8, 8, BF16, BF16, FP32, NONE, A2B1C4, "m16n8k8.row.col.f32.bf16.bf16.f32", 800) \
    X(PK_MMA_TF32_F32_K4, 0, 16, 8, 4, TF32, TF32, FP32, NONE, A2B1C4, "m16n8k4.row.col.f32.tf32.tf32.f32", 800) \
    X(PK_MMA_S8_S32_K16, 0, 16, 8, 16, INT8, INT8, S32, NONE, A2B1C4, "m16n8k16.row.col.s32.s8.s8.s32", 800) \
    X(PK_MMA_U8_S32_K16, 0, 16, 8, 16, UINT8, UINT8, S32, NONE, A2B1C4, "m16n8k16.row.col.s32.u8.u8.s32", 800) \
    X(PK_MMA_S8_S32_M8, 0, 8, 8, 16, INT8, INT8, S32, NONE, A1B1C2, "m8n8k16.row.col.s32.s8.s8.s32", 750) \
    X(PK_MMA_U8_S32_M8, 0, 8, 8, 16, UINT8, UINT8, S32, NONE, A1B1C2, "m8n8k16.row.col.s32.u8.u8.s32", 750) \
    X(PK_MMA_F16_F32_M8, 0, 8, 8, 4, FP16, FP16, FP32, NONE, A2B2C8, "m8n8k4.row.col.f32.f16.f16.f32", 700) \
    X(PK_MMA_F16_F16_M8, 0, 8, 8, 4, FP16, FP16, FP16, NONE, A2B2C4, "m8n8k4.row.col.f16.f16.f16.f16", 700) \
    X(PK_MMA_E4M3_F16, 0, 16, 8, 32, E4M3, E4M3, FP16, NONE, A4B2C2, "m16n8k32.row.col.f16.e4m3.e4m3.f16", 890) \
    X(PK_MMA_E5M2_F16, 0, 16, 8, 32, E5M2, E5M2, FP16, NONE, A4B2C2, "m16n8k32.row.col.f16.e5m2.e5m2.f16", 890) \
    X(PK_MMA_E4M3_F32_K16, 0, 16, 8, 16, E4M3, E4M3, FP32, NONE, A2B1C4, "m16n8k16.row.col.f32.e4m3.e4m3.f32", 890) \
    X(PK_MMA_E4M3_F16_K16, 0, 16, 8, 16, E4M3, E4M3, FP16, NONE, A2B1C2, "m16n8k16.row.col.f16.e4m3.e4m3.f16", 890) \
    X(PK_MMA_E5M2_F32_K16, 0, 16, 8, 16, E5M2, E5M2, FP32, NONE, A2B1C4, "m16n8k16.row.col.f32.e5m2.e5m2.f32", 890) \
    X(PK_MMA_E5M2_F16_K16, 0, 16, 8, 16, E5M2, E5M2, FP16, NONE, A2B1C2, "m16n8k16.row.col.f16.e5m2.e5m2.f16", 890) \
    X(PK_SP_F16_F32_K16, 1, 16, 8, 16, FP16, FP16, FP32, NONE, SP_A2B2C4, "m16n8k16.row.col.f32.f16.f16.f32", 800) \
    X(PK_SP_F16_F16_K16, 1, 16, 8, 16, FP16, FP16, FP16, NONE, SP_A2B2C2, "m16n8k16.row.col.f16.f16.f16.f16", 800) \
    X(PK_SP_F16_F32, 1, 16, 8, 32, FP16, FP16, FP32, NONE, SP_A4B4C4, "m16n8k32.row.col.f32.f16.f16.f32", 800) \
    X(PK_SP_F16_F16, 1, 16, 8, 32, FP16, FP16, FP16, NONE, SP_A4B4C2, "m16n8k32.row.col.f16.f16.f16.f16", 800) \
    X(PK_SP_BF16_F32_K16, 1, 16, 8, 16, BF16, BF16, FP32, NONE, SP_A2B2C4, "m16n8k16.row.col.f32.bf16.bf16.f32", 800) \
    X(PK_SP_BF16_F32, 1, 16, 8, 32, BF16, BF16, FP32, NONE, SP_A4B4C4, "m16n8k32.row.col.f32.bf16.bf16.f32", 800) \
    X(PK_SP_TF32_F32_K8, 1, 16, 8, 8, TF32, TF32, FP32, NONE, SP_A2B2C4, "m16n8k8.row.col.f32.tf32.tf32.f32", 800) \
    X(PK_SP_TF32_F32, 1, 16, 8, 16, TF32, TF32, FP32, NONE, SP_A4B4C4, "m16n8k16.row.col.f32.tf32.tf32.f32", 800) \
    X(PK_SP_S8_S32_K32, 1, 16, 8, 32, INT8, INT8, S32, NONE, SP_A2B2C4, "m16n8k32.row.col.s32.s8.s8.s32", 800) \
    X(PK_SP_U8_S32_K32, 1, 16, 8, 32, UINT8, UINT8, S32, NONE, SP_A2B2C4, "m16n8k32.row.col.s32.u8.u8.s32", 800) \
    X(PK_SP_S8_S32, 1, 16, 8, 64, INT8, INT8, S32, NONE, SP_A4B4C4, "m16n8k64.row.col.s32.s8.s8.s32", 800) \
    X(PK_SP_U8_S32, 1, 16, 8, 64, UINT8, UINT8, S32, NONE, SP_A4B4C4, "m16n8k64.row.col.s32.u8.u8.s32", 800) \
    X(PK_SP_E4M3_F32, 1, 16, 8, 64, E4M3, E4M3, FP32, NONE, SP_A4B4C4, "m16n8k64.row.col.f32.e4m3.e4m3.f32", 890) \
    X(PK_SP_E5M2_F32, 1, 16, 8, 64, E5M2, E5M2, FP32, NONE, SP_A4B4C4, "m16n8k64.row.col.f32.e5m2.e5m2.f32", 890) \
    PK_MMA_FORMS_33(X) \
    PK_MMA_FORMS_F64(X)

/* fp64 (DMMA): m8n8k4 from sm_80, m16n8k4/k8/k16 from sm_90. regs count .f64 registers
 * (D_: each a pair of the host's 32-bit words, low word first). */
#define PK_MMA_FORMS_F64(X) \
    X(PK_MMA_F64_M8, 0, 8, 8, 4, FP64, FP64, FP64, NONE, D_A1B1C2, "m8n8k4.row.col.f64.f64.f64.f64", 800) \
    X(PK_MMA_F64_K4, 0, 16, 8, 4, FP64, FP64, FP64, NONE, D_A2B1C4, "m16n8k4.row.col.f64.f64.f64.f64", 900) \
    X(PK_MMA_F64_K8, 0, 16, 8, 8, FP64, FP64, FP64, NONE, D_A4B2C4, "m16n8k8.row.col.f64.f64.f64.f64", 900) \
    X(PK_MMA_F64_K16, 0, 16, 8, 16, FP64, FP64, FP64, NONE, D_A8B4C4, "m16n8k16.row.col.f64.f64.f64.f64", 900)

/* Issue 33's forms: the 4-bit integers, the b1 ops, and the pairs (int8 x uint8, int4 x
 * uint4 both ways, e4m3 x e5m2 both ways) in the layouts of their one-format forms of the
 * same width. mma.sp's 4-bit forms keep pairs of elements (a metadata rule of their
 * own): timing only, as tf32's. */
/* s4 and u4 (s32 out) */
#define PK_INT4(X, K, sp, m, n, k, regs, types, sm) \
    X(PK_##K##_S4, sp, m, n, k, INT4, INT4, S32, NONE, regs, types ".s32.s4.s4.s32", sm) \
    X(PK_##K##_U4, sp, m, n, k, UINT4, UINT4, S32, NONE, regs, types ".s32.u4.u4.s32", sm)
/* b1's .xor.popc (from sm_75 at m8n8k128, sm_80 for the m16n8 shapes) and .and.popc
 * (sm_80) */
#define PK_POPC(X, K, m, n, k, regs, types, sm) \
    X(PK_MMA_B1_XOR_##K, 0, m, n, k, B1, B1, S32, XOR, regs, \
      types ".s32.b1.b1.s32.xor.popc", sm) \
    X(PK_MMA_B1_AND_##K, 0, m, n, k, B1, B1, S32, AND, regs, \
      types ".s32.b1.b1.s32.and.popc", 800)
#define PK_INT_PAIR(X, K, sp, m, n, k, bits, regs, types, sm) \
    X(PK_##K##_S##bits##xU##bits, sp, m, n, k, INT##bits, UINT##bits, S32, NONE, regs, \
      types ".s32.s" #bits ".u" #bits ".s32", sm) \
    X(PK_##K##_U##bits##xS##bits, sp, m, n, k, UINT##bits, INT##bits, S32, NONE, regs, \
      types ".s32.u" #bits ".s" #bits ".s32", sm)
#define PK_FP8_PAIR(X, K, sp, m, n, k, acc, a, regs, types, sm) \
    X(PK_##K##_E4M3xE5M2_##acc, sp, m, n, k, E4M3, E5M2, acc, NONE, regs, \
      types "." a ".e4m3.e5m2." a, sm) \
    X(PK_##K##_E5M2xE4M3_##acc, sp, m, n, k, E5M2, E4M3, acc, NONE, regs, \
      types "." a ".e5m2.e4m3." a, sm)
#define PK_MMA_FORMS_33(X) \
    PK_INT4(X, MMA_M8, 0, 8, 8, 32, A1B1C2, "m8n8k32.row.col", 750) \
    PK_INT4(X, MMA_K32, 0, 16, 8, 32, A2B1C4, "m16n8k32.row.col", 800) \
    PK_INT4(X, MMA_K64, 0, 16, 8, 64, A4B2C4, "m16n8k64.row.col", 800) \
    PK_INT4(X, SP_K64, 1, 16, 8, 64, SP_A2B2C4, "m16n8k64.row.col", 800) \
    PK_INT4(X, SP_K128, 1, 16, 8, 128, SP_A4B4C4, "m16n8k128.row.col", 800) \
    PK_POPC(X, M8, 8, 8, 128, A1B1C2, "m8n8k128.row.col", 750) \
    PK_POPC(X, K128, 16, 8, 128, A2B1C4, "m16n8k128.row.col", 800) \
    PK_POPC(X, K256, 16, 8, 256, A4B2C4, "m16n8k256.row.col", 800) \
    PK_INT_PAIR(X, MMA_M8, 0, 8, 8, 16, 8, A1B1C2, "m8n8k16.row.col", 750) \
    PK_INT_PAIR(X, MMA_M8, 0, 8, 8, 32, 4, A1B1C2, "m8n8k32.row.col", 750) \
    PK_INT_PAIR(X, MMA_K16, 0, 16, 8, 16, 8, A2B1C4, "m16n8k16.row.col", 800) \
    PK_INT_PAIR(X, MMA_K32, 0, 16, 8, 32, 8, A4B2C4, "m16n8k32.row.col", 800) \
    PK_INT_PAIR(X, MMA_K32, 0, 16, 8, 32, 4, A2B1C4, "m16n8k32.row.col", 800) \
    PK_INT_PAIR(X, MMA_K64, 0, 16, 8, 64, 4, A4B2C4, "m16n8k64.row.col", 800) \
    PK_INT_PAIR(X, SP_K32, 1, 16, 8, 32, 8, SP_A2B2C4, "m16n8k32.row.col", 800) \
    PK_INT_PAIR(X, SP_K64, 1, 16, 8, 64, 8, SP_A4B4C4, "m16n8k64.row.col", 800) \
    PK_INT_PAIR(X, SP_K64, 1, 16, 8, 64, 4, SP_A2B2C4, "m16n8k64.row.col", 800) \
    PK_INT_PAIR(X, SP_K128, 1, 16, 8, 128, 4, SP_A4B4C4, "m16n8k128.row.col", 800) \
    PK_FP8_PAIR(X, MMA_K16, 0, 16, 8, 16, FP32, "f32", A2B1C4, "m16n8k16.row.col", 890) \
    PK_FP8_PAIR(X, MMA_K16, 0, 16, 8, 16, FP16, "f16", A2B1C2, "m16n8k16.row.col", 890) \
    PK_FP8_PAIR(X, MMA_K32, 0, 16, 8, 32, FP32, "f32", A4B2C4, "m16n8k32.row.col", 890) \
    PK_FP8_PAIR(X, MMA_K32, 0, 16, 8, 32, FP16, "f16", A4B2C2, "m16n8k32.row.col", 890) \
    PK_FP8_PAIR(X, SP_K64, 1, 16, 8, 64, FP32, "f32", SP_A4B4C4, "m16n8k64.row.col", 890)

/* PK_TC_FORMS lists the tcgen05.mma forms the kernels run (cta_group::1, A and B from
 * shared memory, D in tensor memory; m128nNkK, K 32 bytes of input): X(kind, in, inb,
 * acc, ptx, dfmt, afmt, bfmt, k). `in` and `inb` are A's and B's formats (kind::f8f6f4
 * mixes them: the PK_TC_PAIR rows), `ptx` the .kind qualifier, dfmt, afmt and bfmt the
 * instruction descriptor's codes of D's format and of A's and B's (PTX ISA, tcgen05.mma
 * "Instruction descriptor format for .kind::f16, .kind::tf32, .kind::f8f6f4 and
 * .kind::i8": D f16 0, f32 1, s32 2; kind::f16 A/B f16 0, bf16 1; kind::tf32 tf32 2;
 * kind::f8f6f4 e4m3 0, e5m2 1, e2m3 3, e3m2 4, e2m1 5; kind::i8 unsigned 0, signed 1).
 * kind::f8f6f4's fp6 and fp4 rows take the bytes of 8-bit ones in shared memory, 16
 * elements packed into each 16 bytes (probe_smem_row). */
#define PK_TC_PAIR(X, a, b, ca, cb)                                   \
    X(PK_TC_##a##x##b##_F32, a, b, FP32, "f8f6f4", 1, ca, cb, 32)     \
    X(PK_TC_##a##x##b##_F16, a, b, FP16, "f8f6f4", 0, ca, cb, 32)
/* The 20 ordered pairs of distinct f8f6f4 formats with their descriptor codes, each
 * through P(X, a, b, ca, cb): kind::f8f6f4's mixed pairs (with kind::i8's two signedness
 * pairs after them, the PK_IS_TC_MIXED kinds) and kind::mxf8f6f4's (PK_TCS_MX_PAIRS). */
#define PK_F8F6F4_PAIRS(P, X) \
    P(X, E4M3, E5M2, 0, 1) P(X, E4M3, E3M2, 0, 4) \
    P(X, E4M3, E2M3, 0, 3) P(X, E4M3, E2M1, 0, 5) \
    P(X, E5M2, E4M3, 1, 0) P(X, E5M2, E3M2, 1, 4) \
    P(X, E5M2, E2M3, 1, 3) P(X, E5M2, E2M1, 1, 5) \
    P(X, E3M2, E4M3, 4, 0) P(X, E3M2, E5M2, 4, 1) \
    P(X, E3M2, E2M3, 4, 3) P(X, E3M2, E2M1, 4, 5) \
    P(X, E2M3, E4M3, 3, 0) P(X, E2M3, E5M2, 3, 1) \
    P(X, E2M3, E3M2, 3, 4) P(X, E2M3, E2M1, 3, 5) \
    P(X, E2M1, E4M3, 5, 0) P(X, E2M1, E5M2, 5, 1) \
    P(X, E2M1, E3M2, 5, 4) P(X, E2M1, E2M3, 5, 3)
#define PK_TC_PAIRS(X) PK_F8F6F4_PAIRS(PK_TC_PAIR, X)
/* The one-format kinds with a 32-bit accumulator, their names prefixed P: cta_group::1's
 * (P = PK_TC, in PK_TC_FORMS) and the CTA pair's (P = PK_TC2, PK_TC_PAIR_FORMS). */
#define PK_TC_ACC32(X, P) \
    X(P##_F16_F32, FP16, FP16, FP32, "f16", 1, 0, 0, 16) \
    X(P##_BF16_F32, BF16, BF16, FP32, "f16", 1, 1, 1, 16) \
    X(P##_TF32_F32, TF32, TF32, FP32, "tf32", 1, 2, 2, 8) \
    X(P##_E4M3_F32, E4M3, E4M3, FP32, "f8f6f4", 1, 0, 0, 32) \
    X(P##_E5M2_F32, E5M2, E5M2, FP32, "f8f6f4", 1, 1, 1, 32) \
    X(P##_E3M2_F32, E3M2, E3M2, FP32, "f8f6f4", 1, 4, 4, 32) \
    X(P##_E2M3_F32, E2M3, E2M3, FP32, "f8f6f4", 1, 3, 3, 32) \
    X(P##_E2M1_F32, E2M1, E2M1, FP32, "f8f6f4", 1, 5, 5, 32) \
    X(P##_S8_S32, INT8, INT8, S32, "i8", 2, 1, 1, 32) \
    X(P##_U8_S32, UINT8, UINT8, S32, "i8", 2, 0, 0, 32)
#define PK_TC_FORMS(X) \
    PK_TC_ACC32(X, PK_TC) \
    X(PK_TC_F16_F16, FP16, FP16, FP16, "f16", 0, 0, 0, 16) \
    X(PK_TC_E4M3_F16, E4M3, E4M3, FP16, "f8f6f4", 0, 0, 0, 32) \
    X(PK_TC_E5M2_F16, E5M2, E5M2, FP16, "f8f6f4", 0, 1, 1, 32) \
    X(PK_TC_E3M2_F16, E3M2, E3M2, FP16, "f8f6f4", 0, 4, 4, 32) \
    X(PK_TC_E2M3_F16, E2M3, E2M3, FP16, "f8f6f4", 0, 3, 3, 32) \
    X(PK_TC_E2M1_F16, E2M1, E2M1, FP16, "f8f6f4", 0, 5, 5, 32) \
    PK_TC_PAIRS(X) \
    X(PK_TC_S8xU8_S32, INT8, UINT8, S32, "i8", 2, 1, 0, 32) \
    X(PK_TC_U8xS8_S32, UINT8, INT8, S32, "i8", 2, 0, 1, 32)

/* PK_TC_SCALED lists the block-scaled tcgen05.mma forms (kind::mxf8f6f4, mxf4,
 * mxf4nvf4 with .block_scale; D fp32): X(kind, in, inb, scale, block, ptx, vec, afmt,
 * bfmt, sfmt, k). `in` and `inb` are A's and B's formats, `ptx` the .kind qualifier,
 * `vec` the .scale_vec qualifier (scale factors a row per instruction: k / block),
 * afmt and bfmt the descriptor's codes of A's and B's format, sfmt its scale type (PTX ISA, tcgen05.mma "Instruction descriptor format
 * for .kind::mxf8f6f4, .kind::mxf4 and .kind::mxf4nvf4": kind::mxf8f6f4 as f8f6f4
 * above; kind::mxf4 and mxf4nvf4 e2m1 1; scale type ue4m3 0, ue8m0 1). kind::mxf4's
 * k = 64 e2m1 are 32 bytes of a row, two elements a byte. */
/* kind::mxf8f6f4's 20 format pairs (issue 33), as kind::f8f6f4's. */
#define PK_TCS_MX_PAIR(X, a, b, ca, cb) \
    X(PK_TCS_MX_##a##x##b, a, b, UE8M0, 32, "mxf8f6f4", "1X", ca, cb, 1, 32)
#define PK_TCS_MX_PAIRS(X) PK_F8F6F4_PAIRS(PK_TCS_MX_PAIR, X)
#define PK_TC_SCALED(X) \
    X(PK_TCS_MX_E4M3, E4M3, E4M3, UE8M0, 32, "mxf8f6f4", "1X", 0, 0, 1, 32) \
    X(PK_TCS_MX_E5M2, E5M2, E5M2, UE8M0, 32, "mxf8f6f4", "1X", 1, 1, 1, 32) \
    X(PK_TCS_MX_E3M2, E3M2, E3M2, UE8M0, 32, "mxf8f6f4", "1X", 4, 4, 1, 32) \
    X(PK_TCS_MX_E2M3, E2M3, E2M3, UE8M0, 32, "mxf8f6f4", "1X", 3, 3, 1, 32) \
    X(PK_TCS_MX_E2M1, E2M1, E2M1, UE8M0, 32, "mxf8f6f4", "1X", 5, 5, 1, 32) \
    X(PK_TCS_MXF4, E2M1, E2M1, UE8M0, 32, "mxf4", "2X", 1, 1, 1, 64) \
    X(PK_TCS_NVF4_UE8M0, E2M1, E2M1, UE8M0, 16, "mxf4nvf4", "4X", 1, 1, 1, 64) \
    X(PK_TCS_NVF4_UE4M3, E2M1, E2M1, UE4M3, 16, "mxf4nvf4", "4X", 1, 1, 0, 64) \
    PK_TCS_MX_PAIRS(X)

/* PK_WG_KINDS lists the wgmma.mma_async kinds (m64nNkK, A and B from shared memory;
 * cuda/wgmma.cuh holds their types), issue 33's pairs (e4m3 x e5m2, s8 x u8) last. */
#define PK_WG_KINDS(X)                                                                     \
    X(PK_WG_F16_F32) X(PK_WG_F16_F16) X(PK_WG_BF16_F32) X(PK_WG_TF32_F32) X(PK_WG_E4M3_F32) \
    X(PK_WG_E4M3_F16) X(PK_WG_E5M2_F32) X(PK_WG_E5M2_F16) X(PK_WG_S8_S32) X(PK_WG_U8_S32) \
    X(PK_WG_E4M3xE5M2_F32) X(PK_WG_E4M3xE5M2_F16) X(PK_WG_E5M2xE4M3_F32)                    \
    X(PK_WG_E5M2xE4M3_F16) X(PK_WG_S8xU8_S32) X(PK_WG_U8xS8_S32)

#define PK_ENUM_ENTRY(kind, sp, m, n, k, in, inb, acc, op, regs, types, sm) kind,
#define PK_WG_ENUM_ENTRY(kind) kind,
/* PK_TC_PAIR_FORMS: tcgen05.mma.cta_group::2 (a CTA pair of a cluster of 2, one thread of
 * the first CTA issuing; m256: 128 rows of A and D in each CTA, B's N split in halves),
 * as PK_TC_FORMS: the one-format kinds with a 32-bit accumulator (the pair's kernel
 * keeps one word an element in TMEM), fp16 -> fp32 first (the pair's timing kernel). */
#define PK_TC_PAIR_FORMS(X) PK_TC_ACC32(X, PK_TC2)

#define PK_TC_ENUM_ENTRY(kind, in, inb, acc, ptx, dfmt, afmt, bfmt, k) kind,
#define PK_TCS_ENUM_ENTRY(kind, in, inb, scale, block, ptx, vec, afmt, bfmt, sfmt, k) kind,
enum probe_kind {
    PK_MMA_FORMS(PK_ENUM_ENTRY)
    PK_WG_KINDS(PK_WG_ENUM_ENTRY)
    PK_TC_FORMS(PK_TC_ENUM_ENTRY)
    PK_TC_SCALED(PK_TCS_ENUM_ENTRY)
    PK_TC_PAIR_FORMS(PK_TC_ENUM_ENTRY)
    PK_COUNT
};
#undef PK_ENUM_ENTRY
#undef PK_WG_ENUM_ENTRY
#undef PK_TC_ENUM_ENTRY
#undef PK_TCS_ENUM_ENTRY
#define PK_IS_F64(k) ((k) >= PK_MMA_F64_M8 && (k) <= PK_MMA_F64_K16)
#define PK_IS_WGMMA(k) ((k) >= PK_WG_F16_F32 && (k) <= PK_WG_U8xS8_S32)
#define PK_IS_WG_MIXED(k) ((k) >= PK_WG_E4M3xE5M2_F32 && (k) <= PK_WG_U8xS8_S32)
#define PK_IS_TCGEN05(k) ((k) >= PK_TC_F16_F32 && (k) < PK_COUNT)
#define PK_IS_TC_SCALED(k) ((k) >= PK_TCS_MX_E4M3 && (k) <= PK_TCS_MX_E2M1xE2M3)
#define PK_IS_TC_PAIR(k) ((k) >= PK_TC2_F16_F32 && (k) <= PK_TC2_U8_S32)
#define PK_IS_TC_MIXED(k) ((k) >= PK_TC_E4M3xE5M2_F32 && (k) <= PK_TC_U8xS8_S32)
/* The numerics kernels run wgmma m64n8 (8 cases a warpgroup, on D's diagonal) and
 * tcgen05.mma m128n16 (16 cases a CTA: N = 16 is M = 128's smallest). */
#define PK_WG_NUMERICS_N 8
#define PK_TC_NUMERICS_M 128
#define PK_TC_NUMERICS_N 16
/* The CTA pair's numerics kernel: m256n32 (N = 32: 16 columns of B in each CTA). */
#define PK_TC2_NUMERICS_M 256
#define PK_TC2_NUMERICS_N 32

#endif
