#!/usr/bin/env python3
"""extrapolate_test.py - synth.py's width extrapolation (the `extrapolate=PARAM:FULL` option
of synth/blocks.txt) on made-up records whose answer is worked out by hand below."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import synth  # noqa: E402


def rec(name, width, area, cells, flops, top='tmem'):
    bits = width * 65536
    return {'name': name, 'top': top, 'params': {'WordW': width}, 'extrapolate': ['WordW', 32],
            'area_um2': area, 'nand2_eq': area / 24.0, 'cells': cells, 'flops': flops,
            'storage': {'tmem_bank': {'bits': bits, 'sram_area_um2': 7.5 * bits}}}


failures = 0


def check(what, got, want):
    global failures
    if got != want:
        print(f'FAIL {what}: got {got!r}, want {want!r}')
        failures += 1


# Three widths on one line: area = 1000 + 1000 w, cells = 20 + 40 w, flops = 10 + 20 w.
# At w = 32: 33,000 um^2 (1,375 NAND2 of 24 um^2), 1,300 cells, 650 flops; the banks hold
# 32 * 65,536 = 2,097,152 bits, 15,728,640 um^2 at 7.5 um^2/bit.
rs = [rec('t1', 1, 2000.0, 60, 30), rec('t2', 2, 3000.0, 100, 50), rec('t4', 4, 5000.0, 180, 90),
      rec('other', 4, 9.0, 1, 1, top='fedp')]   # a lone width of another top: no line
out = synth.extrapolations(rs)
check('one extrapolation (the top with two or more widths)', len(out), 1)
e = out[0]
check('top', e['top'], 'tmem')
check('widths', e['measured_widths'], [1, 2, 4])
check('per-bit area', e['area_per_bit_um2'], 1000.0)
check('fixed area', e['area_fixed_um2'], 1000.0)
check('area at 32', e['area_um2'], 33000.0)
check('NAND2 at 32', e['nand2_eq'], 1375.0)
check('cells at 32', e['cells'], 1300)
check('flops at 32', e['flops'], 650)
check('bank bits at 32', e['bank_bits'], 2097152)
check('SRAM at 32', e['sram_area_um2'], 15728640.0)
# One width only: nothing to fit.
check('single width', synth.extrapolations([rec('t4', 4, 5000.0, 180, 90)]), [])
print('PASSED' if not failures else f'FAILED: {failures}')
sys.exit(1 if failures else 0)
