#!/usr/bin/env python3
"""check_report.py [--stem STEM] REPORTS_DIR BLOCK... - the synthesis report has every
field, for every named block, with values that make sense (non-zero area, positive critical
path, stage paths no longer than it, flops in every stage), names its flow and Yosys, and
STEM.md (synth.md by default; synth-plain-debian.md for --flow plain, ...) has a row per
block. Exit 1 naming what is wrong."""
import json
import os
import sys

BLOCK_FIELDS = {'name': str, 'top': str, 'source': str, 'params': dict, 'area_um2': float,
                'nand2_eq': float, 'cells': int, 'flops': int, 'critical_path_ns': float,
                'fmax_mhz': float, 'stages': dict, 'yosys_seconds': float,
                'sta_seconds': float, 'period_ns': float}
TOP_FIELDS = {'liberty': str, 'nand2_cell': str, 'nand2_area_um2': float, 'period_ns': float,
              'total_seconds': float, 'blocks': dict, 'flow': str, 'yosys': str}


def check(cond, msg, errors):
    if not cond:
        errors.append(msg)


def typed(v, t):
    return isinstance(v, (int, float)) and not isinstance(v, bool) if t is float \
        else isinstance(v, t) and not (t is int and isinstance(v, bool))


def main(argv):
    stem = 'synth'
    if len(argv) > 2 and argv[1] == '--stem':
        stem = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) < 3:
        print(__doc__.split('\n')[0], file=sys.stderr)
        return 2
    reports, names = argv[1], argv[2:]
    errors = []
    try:
        with open(os.path.join(reports, stem + '.json')) as f:
            doc = json.load(f)
        with open(os.path.join(reports, stem + '.md')) as f:
            md = f.read()
    except (OSError, ValueError) as e:
        print(f'check_report: {e}')
        return 1
    for k, t in TOP_FIELDS.items():
        check(k in doc and typed(doc[k], t), f'synth.json: field {k} missing or not {t.__name__}',
              errors)
    blocks = doc.get('blocks', {})
    for n in names:
        r = blocks.get(n)
        if r is None:
            errors.append(f'no record {n}')
            continue
        for k, t in BLOCK_FIELDS.items():
            check(k in r and typed(r[k], t), f'{n}: field {k} missing or not {t.__name__}', errors)
        if errors:
            continue
        check(r['area_um2'] > 0 and r['cells'] > 0 and r['flops'] > 0,
              f'{n}: empty design (area {r["area_um2"]}, cells {r["cells"]}, flops {r["flops"]})',
              errors)
        check(abs(r['nand2_eq'] - r['area_um2'] / doc['nand2_area_um2']) < 1,
              f'{n}: nand2_eq is not area / NAND2 area', errors)
        cp = r['critical_path_ns']
        check(cp > 0, f'{n}: critical path {cp} ns', errors)
        check(cp > 0 and abs(r['fmax_mhz'] - 1000 / cp) < 0.1, f'{n}: fmax is not 1/critical path',
              errors)
        check(len(r['stages']) > 0, f'{n}: no stage timing', errors)
        for s, v in r['stages'].items():
            # box_read / box_write time memory pins, not flops
            flops_ok = v.get('flops', 0) > 0 or s.startswith('box_') if isinstance(v, dict) else False
            check(isinstance(v, dict) and 0 < v.get('path_ns', 0) <= cp + 1e-3 and flops_ok,
                  f'{n}: stage {s} = {v} (expected 0 < path_ns <= {cp}, flops > 0)', errors)
        check(f'| {n} |' in md, f'{stem}.md has no row for {n}', errors)
    check(doc.get('flow') in ('project', 'plain'), f'flow {doc.get("flow")!r}', errors)
    check(str(doc.get('yosys', '')).startswith('Yosys '), f'yosys {doc.get("yosys")!r}', errors)
    check(f'# Synthesis: {doc.get("yosys")}' in md, f'{stem}.md does not name the Yosys', errors)
    for e in errors:
        print(f'check_report: {e}')
    if not errors:
        print(f'check_report: {len(names)} block(s) complete in {reports}')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
