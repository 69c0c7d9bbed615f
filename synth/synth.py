#!/usr/bin/env python3
"""synth.py - area and timing of every RTL block: Yosys 0.23 to the OSU 0.18 um standard
cells, then OpenSTA on the mapped netlist (issue 8).

For each block of synth/blocks.txt: yosys_flow.tcl (read rtl/rtl.f and the block's lists,
chparam, synth -flatten, dfflibmap, abc with the liberty and a delay target, stat) and
sta_flow.tcl (clock, input/output delays, worst slack overall and per pipeline stage).
Writes REPORTS/synth.json (one record per block) and REPORTS/synth.md (the tables of the
README), and keeps every log and netlist in WORK/<block>/.

  synth.py [--quick] [--only NAME,...] [--jobs N] [--work DIR] [--reports DIR]
           [--tcsim EXE] [--liberty FILE] [--period NS] [--flow project|plain]
           [--yosys debian|npm] [--yosys-npm DIR]

--flow plain runs plain_flow.ys instead (a peer's recipe: ABC's default liberty mapping,
no buffering or sizing) and --yosys npm the Yosys of the npm package @yowasp/yosys
under Node (synth/yosys_wasm.mjs; the package installed under build/yowasp by
`./run setup --yosys-npm`, or --yosys-npm DIR); the npm Yosys runs the plain flow only
(it has no Tcl). Reports other than the project flow with Debian's Yosys are named
synth-FLOW-YOSYS.json/.md, so that runs of different flows sit side by side.
  synth.py --lint [--quick] [--only NAME,...] [--only-top TOP] [--tcsim EXE]
  synth.py --sta-only NAME --netlist FILE ...   timing of a given netlist (a test hook)
  synth.py --slurm [--partition P] [--time T] [--wait] [selection and options as above]
           one Slurm array task per block (synth/../sim/slurm/synth_shard.sbatch), then a
           merge job writing REPORTS/synth.json and synth.md (docs/sim.md)

Exit status: 0 when every block that exists was built and timed; 1 when a tool failed
(the message names the block, the tool and its log); 2 for bad usage or a missing input
(liberty, tool, file list, blocks file), named in the message. blocks.txt is checked
whole when it is read (FILE:LINE in the message), before any work starts. --lint takes
the same selection (--only, --quick, --only-top) as the full flow.

Python 3 standard library only (Debian 12's python3).
"""
import argparse
import concurrent.futures
import difflib
import fnmatch
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SYNTH_DIR = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(SYNTH_DIR)
sys.path.insert(0, os.path.join(ROOT, 'sim', 'slurm'))
import submit  # noqa: E402  (sim/slurm/submit.py: sbatch, job states, waiting)
RTL_DIR = os.path.join(ROOT, 'rtl')
DEFAULT_LIBERTY = '/usr/share/qflow/tech/osu018/osu018_stdcells.lib'

# The unit of the NAND2-equivalent count, and the cells the timing conventions use.
NAND2_CELL = 'NAND2X1'
STA_DRIVER = 'BUFX2/Y'
STA_LOAD = 'DFFPOSX1/D'

# Clock period (ns) for STA, also ABC's delay target: about what one FEDP stage needs in
# this library, so that slack is small and the critical paths are what ABC optimised for.
DEFAULT_PERIOD_NS = 10.0

# Storage of black-boxed memories is estimated, never synthesized. A 6T SRAM bit cell is
# about 140 F^2 (the usual rule of thumb of the ITRS era), 4.5 um^2 at F = 0.18 um; with
# an array efficiency of about 60% (decoders, sense amplifiers, write drivers), 7.5 um^2
# per bit. The OSU cells are drawn with scalable SCMOS rules, about twice the area of a
# commercial 0.18 um library, so this figure flatters the storage next to the logic;
# the flop-based figure beside it (DFFPOSX1 + MUX2X1 per bit) is the other bound.
SRAM_UM2_PER_BIT = 7.5

# Where `./run setup --yosys-npm` installs the npm package @yowasp/yosys (git-ignored).
DEFAULT_YOSYS_NPM = os.path.join(ROOT, 'build', 'yowasp', 'node_modules', '@yowasp', 'yosys')

# Names, in order, of the fields of a `tcsim fedp-params` line after the name.
FEDP_PARAM_NAMES = ['L', 'F', 'InFmts', 'OutFmts', 'EminAlignFp32', 'EminAlignFp16',
                    'Fp32ManBits', 'ScaleFmts', 'ZeroPlusFp16', 'InPairs']


class FlowError(Exception):
    """A block failed: the message names the block, the step and where to look."""


class UsageError(Exception):
    """Bad arguments or a missing input of the whole flow."""


# ------------------------------------------------------------------ inputs

def read_file_list(path):
    """Files of an rtl.f-style list: one per line, relative to the list, // comments."""
    if not os.path.isfile(path):
        raise UsageError(f'file list {path} does not exist')
    base = os.path.dirname(path)
    files = []
    with open(path) as f:
        for line in f:
            line = line.split('//', 1)[0].strip()
            if line:
                files.append(os.path.normpath(os.path.join(base, line)))
    return files


# The key=value options of blocks.txt, by the kind of line they are allowed on.
TOP_KEYS = ('lists', 'params', 'stages', 'blackbox', 'extrapolate')
BLOCK_KEYS = ('set',)


def parse_options(words, where, allowed, kind):
    opts = {}
    flags = set()
    for w in words:
        if '=' in w:
            k, v = w.split('=', 1)
            if k in opts:
                raise UsageError(f'{where}: option {k}= given twice')
            opts[k] = v
        else:
            flags.add(w)
    for k in opts:
        if k in TOP_KEYS + BLOCK_KEYS and k not in allowed:
            raise UsageError(f'{where}: option {k}= belongs on a '
                             f'{"block" if kind == "top" else "top"} line, not a {kind} line '
                             f'({kind} lines take {", ".join(x + "=" for x in allowed)})')
        if k not in allowed:
            raise UsageError(f'{where}: unknown option {k}=')
    return opts, flags


def parse_top(opts, where):
    """The options of a `top` line, checked and parsed."""
    t = {'where': where}
    t['lists'] = [x for x in opts.get('lists', '').split(',') if x]
    t['takes'] = [x for x in opts.get('params', '').split(',') if x]
    bad = [x for x in t['takes'] if x not in FEDP_PARAM_NAMES]
    if bad:
        raise UsageError(f'{where}: params= names {bad} are not in a parameter set '
                         f'({" ".join(FEDP_PARAM_NAMES)})')
    t['stages'] = []
    for st in [x for x in opts.get('stages', '').split(',') if x]:
        if not re.fullmatch(r'\w+\??:\S+', st):
            raise UsageError(f'{where}: stage "{st}" is not NAME:GLOB or NAME?:GLOB')
        name, glob = st.split(':', 1)
        # NAME?: a stage that has no registers in some blocks of the top (a pipeline cut
        # that a parameter leaves as a wire) and is then left out.
        t['stages'].append((name.rstrip('?'), glob, name.endswith('?')))
    t['extrapolate'] = None
    if 'extrapolate' in opts:
        m = re.fullmatch(r'(\w+):(\d+)', opts['extrapolate'])
        if not m or int(m.group(2)) <= 0:
            raise UsageError(f'{where}: extrapolate "{opts["extrapolate"]}" is not PARAM:FULL '
                             '(FULL a positive integer)')
        t['extrapolate'] = (m.group(1), int(m.group(2)))
    t['boxes'] = []
    for bx in [x for x in opts.get('blackbox', '').split(',') if x]:
        parts = bx.split(':')
        ok = len(parts) == 4 and re.fullmatch(r'\w+', parts[0]) and \
            re.fullmatch(r'\w+(\*\w+)*', parts[3])
        ns = []
        for x in parts[1:3] if ok else ():
            try:
                ns.append(float(x))
            except ValueError:
                ok = False
        if not ok or not all(math.isfinite(x) and x >= 0 for x in ns):
            raise UsageError(f'{where}: blackbox "{bx}" is not MOD:IN_NS:OUT_NS:BITS '
                             '(IN_NS, OUT_NS: non-negative numbers of ns; BITS: parameter '
                             'names joined by *)')
        t['boxes'].append((parts[0], ns[0], ns[1], parts[3]))
    return t


def parse_set(value, where):
    """set=NAME=VALUE,... of a `block` line: {NAME: int}."""
    out = {}
    for kv in [x for x in value.split(',') if x]:
        k, sep, v = kv.partition('=')
        try:
            n = int(v, 0) if sep and re.fullmatch(r'\w+', k) else None
        except ValueError:
            n = None
        if n is None:
            raise UsageError(f'{where}: set "{kv}" is not NAME=INTEGER')
        if k in out:
            raise UsageError(f'{where}: set gives {k} twice')
        out[k] = n
    return out


def read_blocks(path):
    """The `top` and `block` lines of blocks.txt (format in that file's header), every
    option checked here, so that a malformed line stops the run before any work starts."""
    tops = {}
    blocks = []
    try:
        with open(path, encoding='utf-8') as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        raise UsageError(f'blocks file {path} does not exist')
    except IsADirectoryError:
        raise UsageError(f'blocks file {path} is a directory')
    except UnicodeDecodeError as e:
        raise UsageError(f'blocks file {path} is not UTF-8 text ({e})')
    except OSError as e:
        raise UsageError(f'blocks file {path} cannot be read: {e.strerror or e}')
    for n, line in enumerate(lines, 1):
        words = line.split('#', 1)[0].split()
        if not words:
            continue
        where = f'{path}:{n}'
        if words[0] == 'top' and len(words) >= 2:
            opts, flags = parse_options(words[2:], where, TOP_KEYS, 'top')
            if flags:
                raise UsageError(f'{where}: unknown word(s) {sorted(flags)}')
            if words[1] in tops:
                raise UsageError(f'{where}: top {words[1]} was already described at '
                                 f'{tops[words[1]]["where"]}')
            tops[words[1]] = parse_top(opts, where)
        elif words[0] == 'block' and len(words) >= 4:
            opts, flags = parse_options(words[4:], where, BLOCK_KEYS, 'block')
            if flags - {'quick'}:
                raise UsageError(f'{where}: unknown word(s) {sorted(flags - {"quick"})}')
            source = words[3]
            if source != '-' and not re.fullmatch(r'fedp:\S+', source):
                raise UsageError(f'{where}: unknown source {source!r} (fedp:PRESET, '
                                 'fedp:ARCH:INSTR:FMTS or -)')
            blocks.append({'name': words[1], 'top': words[2], 'source': source,
                           'quick': 'quick' in flags,
                           'set': parse_set(opts.get('set', ''), where), 'where': where})
        else:
            raise UsageError(f'{where}: expected "top TOP ..." or "block NAME TOP SOURCE ..."')
    names = [b['name'] for b in blocks]
    dup = {x for x in names if names.count(x) > 1}
    if dup:
        raise UsageError(f'{path}: block names used twice: {sorted(dup)}')
    empty = parse_top({}, path)
    for b in blocks:
        t = tops.get(b['top'], empty)
        for k in ('lists', 'takes', 'stages', 'extrapolate', 'boxes'):
            b[k] = t[k]
    return blocks


def fedp_params(tcsim, blocks):
    """Parameter sets of the blocks with a fedp:... source, from `tcsim fedp-params`: a
    preset of rtl/tc_pkg.sv (fedp:PRESET) or a spec of profile rows (fedp:ARCH:INSTR:FMTS),
    both folded from the model's profile table."""
    args = {}   # block name -> the argument whose line is its set
    for b in blocks:
        if b['source'].startswith('fedp:'):
            src = b['source'][len('fedp:'):]
            args[b['name']] = b['name'] + ':' + src if ':' in src else src
    if not args:
        return {}
    if not tcsim or not os.access(tcsim, os.X_OK):
        raise UsageError(f'tcsim {tcsim!r} is missing (build the target tcsim: its '
                         'fedp-params gives the FEDP blocks their parameters)')
    r = subprocess.run([tcsim, 'fedp-params'] + sorted(set(args.values())),
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise UsageError(f'{tcsim} fedp-params failed (exit {r.returncode}): '
                         f'{r.stderr.strip()}')
    sets = {}
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) != 1 + len(FEDP_PARAM_NAMES):
            raise UsageError(f'{tcsim} fedp-params: unexpected line {line!r} (expected the '
                             f'name and {" ".join(FEDP_PARAM_NAMES)})')
        sets[f[0]] = dict(zip(FEDP_PARAM_NAMES, (int(x) for x in f[1:])))
    return {name: sets[arg.split(':', 1)[0]] for name, arg in args.items()}


def read_liberty(path):
    """Area of every cell, and which cells are flip-flops or latches."""
    if not os.path.isfile(path):
        raise UsageError(f'liberty file {path} does not exist (Debian package qflow-tech-osu018)')
    area = {}
    seq = set()
    cell = None
    with open(path) as f:
        for line in f:
            m = re.match(r'\s*cell\s*\(\s*"?([\w]+)"?\s*\)', line)
            if m:
                cell = m.group(1)
                continue
            if cell is None:
                continue
            m = re.match(r'\s*area\s*:\s*([0-9.eE+-]+)', line)
            if m and cell not in area:
                area[cell] = float(m.group(1))
            if re.match(r'\s*(ff|latch)\s*\(', line):
                seq.add(cell)
    if NAND2_CELL not in area:
        raise UsageError(f'liberty {path} has no {NAND2_CELL}: no NAND2-equivalent unit '
                         f'(cells: {" ".join(sorted(area)) or "none"})')
    return area, seq


def yosys_int(v):
    """chparam takes no negative decimal: a 32-bit signed hex constant instead."""
    return str(v) if v >= 0 else "32'sh%08x" % (v & 0xffffffff)


def find_module(files, top):
    pat = re.compile(r'^\s*module\s+' + re.escape(top) + r'\b', re.M)
    for f in files:
        with open(f, errors='replace') as h:
            if pat.search(h.read()):
                return f
    return None


def rtl_modules():
    """Every module defined under rtl/: {name: the first file (in sorted order) that
    defines it}, whether or not a file list names that file."""
    mods = {}
    pat = re.compile(r'^\s*module\s+(?:automatic\s+|static\s+)?(\w+)', re.M)
    for d, dirs, names in os.walk(RTL_DIR):
        dirs.sort()
        for n in sorted(names):
            if n.endswith(('.sv', '.v')):
                p = os.path.join(d, n)
                with open(p, errors='replace') as h:
                    for m in pat.findall(h.read()):
                        mods.setdefault(m, p)
    return mods


def check_tops(blocks):
    """A block whose top module exists nowhere under rtl/ is skipped later (blocks can be
    listed before their RTL lands), unless its name is close to a module that does
    exist: that is a typo, and an error naming the line."""
    mods = rtl_modules()
    for b in blocks:
        if b['top'] in mods:
            continue
        close = difflib.get_close_matches(b['top'], sorted(mods), n=3, cutoff=0.75)
        if close:
            raise UsageError(f'{b["where"]}: block {b["name"]}: no module {b["top"]} in rtl/; '
                             f'did you mean {" or ".join(close)}? (a module not written yet '
                             'must not be named like an existing one)')


# ------------------------------------------------------------------ one block

def run_tool(cmd, env, log, what, block):
    with open(log, 'w') as lf:
        r = subprocess.run(cmd, env=env, stdout=lf, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        tail = ''
        with open(log, errors='replace') as lf:
            lines = [x.rstrip() for x in lf if x.strip()]
        errors = [x for x in lines if re.search(r'error', x, re.I)]
        tail = '\n    '.join((errors or lines)[-6:])
        raise FlowError(f'{block}: {what} failed (exit {r.returncode}), log {log}:\n    {tail}')


def netlist_flops(netlist, lib_seq):
    """{register net name: flop instance} of a mapped netlist, through assign aliases.

    yosys_flow.tcl keeps the RTL's *_q names, but a register that drives an output port
    sits on the port's net with its own name only as an alias (assign), which OpenSTA's
    pattern matching does not follow; reading the netlist here does.
    """
    with open(netlist, errors='replace') as f:
        text = f.read()
    ident = r'(\\\S+|[A-Za-z_][\w$]*(?:\s*\[\d+\])?)'
    q_of = {}
    inst_re = re.compile(r'^\s*(\w+)\s+' + ident + r'\s*\((.*?)\);', re.M | re.S)
    for m in inst_re.finditer(text):
        cell, inst, body = m.group(1), m.group(2), m.group(3)
        if cell in lib_seq:
            q = re.search(r'\.Q\(\s*' + ident + r'\s*\)', body)
            if q:
                q_of[norm_net(q.group(1))] = inst.strip()
    # assign a = b; (one bit each after splitnets): a and b are the same net.
    alias = {}
    for m in re.finditer(r'^\s*assign\s+' + ident + r'\s*=\s*' + ident + r'\s*;', text, re.M):
        a, b = norm_net(m.group(1)), norm_net(m.group(2))
        alias.setdefault(a, set()).add(b)
        alias.setdefault(b, set()).add(a)
    names = {}
    for net, inst in q_of.items():
        seen, todo = set(), [net]
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            names[n] = inst
            todo.extend(alias.get(n, ()))
    return names


def norm_net(name):
    name = name.strip()
    if name.startswith('\\'):
        name = name[1:]
    return re.sub(r'\s+', '', name)


def check_netlist(block, netlist, lib_area):
    """A netlist OpenSTA can time as it is: OpenSTA turns an unknown cell into an empty
    black box without a word, and times a truncated file's first part."""
    name = block['name']
    try:
        with open(netlist, errors='replace') as f:
            text = f.read()
    except OSError as e:
        raise FlowError(f'{name}: cannot read netlist {netlist}: {e}')
    if not re.search(r'^\s*module\s+' + re.escape(block['top']) + r'\b', text, re.M):
        raise FlowError(f'{name}: netlist {netlist} has no module {block["top"]}')
    modules = len(re.findall(r'^\s*module\b', text, re.M))
    if len(re.findall(r'^\s*endmodule\b', text, re.M)) != modules:
        raise FlowError(f'{name}: netlist {netlist} is truncated (a module without endmodule)')
    boxes = [bx[0] for bx in block['boxes']]
    bad = set()
    for m in re.finditer(r'^\s*([A-Za-z_\\][^\s(]*)\s+[^\s(]+\s*\(', text, re.M):
        cell = m.group(1).lstrip('\\')
        if cell in ('module', 'assign') or cell in lib_area:
            continue
        if any(cell == b or cell.startswith('$paramod') and b in cell for b in boxes):
            continue
        bad.add(cell)
    if bad:
        raise FlowError(f'{name}: netlist {netlist} instantiates cells that are not in the '
                        f'liberty: {" ".join(sorted(bad)[:8])}')


def top_ports(netlist, top):
    """{port: 'input' | 'output'} of the top module of a netlist."""
    with open(netlist, errors='replace') as f:
        text = f.read()
    m = re.search(r'^\s*module\s+' + re.escape(top) + r'\b(.*?)^\s*endmodule', text, re.M | re.S)
    ports = {}
    if m:
        for d in re.finditer(r'^\s*(input|output)\s*(?:\[[^\]]*\])?\s*(\\\S+|\w+)\s*;',
                             m.group(1), re.M):
            ports[d.group(2).lstrip('\\')] = d.group(1)
    return ports


def write_box_ports(block, netlist, path):
    """The ports that yosys_flow.tcl made of black-box pins (<module>_<n>__<pin>), with
    the delays of blocks.txt: a memory output is launched its access time after the
    clock, a memory input is due its setup time before it."""
    lines = []
    if block['boxes']:
        ports = top_ports(netlist, block['top'])
        for mod, in_ns, out_ns, _ in block['boxes']:
            pat = re.compile(re.escape(mod) + r'_\d+__\w+$')
            ins = sorted(p for p, d in ports.items() if d == 'input' and pat.match(p))
            outs = sorted(p for p, d in ports.items() if d == 'output' and pat.match(p))
            if not ins and not outs:
                raise FlowError(f'{block["name"]}: no pin of black box {mod} in {netlist}')
            if ins:
                lines.append(f'input {in_ns} ' + ' '.join(ins))
            if outs:
                lines.append(f'output {out_ns} ' + ' '.join(outs))
    with open(path, 'w') as f:
        f.write(''.join(x + '\n' for x in lines))


def storage_estimate(block, box_dump, cfg):
    """Bits of the black-boxed memories (from each instance's parameters, with the BITS
    product of blocks.txt) and two area figures that are not part of the logic's."""
    with open(box_dump, errors='replace') as f:
        text = f.read()
    out = {}
    for mod, _, _, expr in block['boxes']:
        insts = 0
        bits = 0
        for cell in re.finditer(r'^\s*cell\s+\\?' + re.escape(mod) + r'\s+(\S+)\s*\n(.*?)^\s*end\b',
                                text, re.M | re.S):
            params = {m.group(1): int(m.group(2)) for m in
                      re.finditer(r'parameter\s+\\(\w+)\s+(-?\d+)', cell.group(2))}
            n = 1
            for name in expr.split('*'):
                if name not in params:
                    raise FlowError(f'{block["name"]}: black box {mod} has no parameter {name} '
                                    f'(it has {sorted(params)}; see {box_dump})')
                n *= params[name]
            insts += 1
            bits += n
        if not insts:
            raise FlowError(f'{block["name"]}: no instance of black box {mod} (see {box_dump})')
        flop_bit = cfg['lib_area']['DFFPOSX1'] + cfg['lib_area']['MUX2X1']
        out[mod] = {'instances': insts, 'bits': bits, 'bits_expr': expr,
                    'sram_um2_per_bit': SRAM_UM2_PER_BIT,
                    'sram_area_um2': round(bits * SRAM_UM2_PER_BIT, 1),
                    'flop_area_um2': round(bits * flop_bit, 1)}
    return out


def run_sta(block, netlist, cfg, work, period):
    check_netlist(block, netlist, cfg['lib_area'])
    stage_file = os.path.join(work, 'stages.txt')
    with open(stage_file, 'w') as f:
        if block['stages']:
            flops = netlist_flops(netlist, cfg['lib_seq'])
            for stage, glob, optional in block['stages']:
                insts = sorted({i for n, i in flops.items() if fnmatch.fnmatchcase(n, glob)})
                if not insts and optional:
                    continue
                if not insts:
                    raise FlowError(f'{block["name"]}: stage {stage}: no register net of '
                                    f'{netlist} matches {glob!r}')
                f.write(stage + ' ' + ' '.join(insts) + '\n')
    box_file = os.path.join(work, 'box_ports.txt')
    write_box_ports(block, netlist, box_file)
    env = dict(os.environ,
               STA_LIBERTY=cfg['liberty'], STA_NETLIST=netlist, STA_TOP=block['top'],
               STA_CLOCK='clk_i', STA_PERIOD=str(period), STA_STAGE_FILE=stage_file,
               STA_BOX_FILE=box_file, STA_DRIVER=STA_DRIVER, STA_LOAD=STA_LOAD)
    log = os.path.join(work, 'sta.log')
    t0 = time.monotonic()
    run_tool(['sta', '-no_init', '-exit', os.path.join(SYNTH_DIR, 'sta_flow.tcl')], env, log,
             'OpenSTA (sta_flow.tcl)', block['name'])
    seconds = time.monotonic() - t0
    crit = None
    stages = {}
    with open(log, errors='replace') as f:
        text = f.read()
    # OpenSTA carries on after a netlist syntax error and links what it could parse:
    # a netlist it could not read completely is an error here, not a timing result.
    bad = [x for x in text.splitlines() if re.match(r'\s*Error', x)]
    if bad:
        what = (f'OpenSTA cannot parse netlist {netlist}' if any(netlist in x for x in bad)
                else 'OpenSTA reported errors')
        raise FlowError(f'{block["name"]}: {what} (log {log}):\n    ' + '\n    '.join(bad[:6]))
    for line in text.splitlines():
        w = line.split()
        if len(w) == 3 and w[:2] == ['RESULT', 'critical_ns']:
            crit = float(w[2])
        elif len(w) == 4 and w[0] == 'STAGE':
            stages[w[1]] = {'path_ns': round(float(w[2]), 3), 'flops': int(w[3])}
    if crit is None or crit <= 0:
        raise FlowError(f'{block["name"]}: OpenSTA gave no critical path (log {log})')
    return crit, stages, seconds


def cell_stats(stat_json, lib_area, lib_seq):
    """Area, cell and flop counts of the mapped design, from Yosys's cell counts and the
    liberty's areas (black boxes were cut out before: none is left to count)."""
    with open(stat_json) as f:
        st = json.load(f)
    mods = st['modules']
    counts = st.get('design', next(iter(mods.values())))['num_cells_by_type']
    area = 0.0
    cells = flops = 0
    unknown = []
    for cell, n in counts.items():
        name = cell.lstrip('\\')
        if name in lib_area:
            area += lib_area[name] * n
            cells += n
            if name in lib_seq:
                flops += n
        else:
            unknown.append(name)
    if unknown:
        raise FlowError(f'cells that are not in the liberty: {unknown}')
    return area, cells, flops


def plain_flow_cmd(block, cfg, work, files, params):
    """(command, environment, what) of plain_flow.ys for one block. With the npm Yosys,
    which sees only the files handed to it (yosys_wasm.mjs), the RTL and the liberty are
    copied into WORK/tree first and every path of the script is relative to it."""
    if block['boxes']:
        raise FlowError(f'{block["name"]}: the plain flow has no black boxes (top '
                        f'{block["top"]}); use --flow project')
    npm = cfg['yosys'] == 'npm'
    tree = os.path.join(work, 'tree')
    if npm:
        shutil.rmtree(tree, ignore_errors=True)
        for f in files:
            dst = os.path.join(tree, os.path.relpath(f, ROOT))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(f, dst)
        lib = os.path.join(tree, 'liberty', os.path.basename(cfg['liberty']))
        os.makedirs(os.path.dirname(lib), exist_ok=True)
        shutil.copyfile(cfg['liberty'], lib)
        path = lambda p: os.path.relpath(p, tree)   # noqa: E731 (the tree's own names)
        out = tree
    else:
        path = lambda p: p                          # noqa: E731
        out = work
    chparam = ''
    if params:
        chparam = ('chparam ' + ' '.join(f'-set {k} {yosys_int(v)}' for k, v in params.items()) +
                   f' {block["top"]}')
    with open(os.path.join(SYNTH_DIR, 'plain_flow.ys')) as f:
        script = f.read().format(
            files=' '.join(path(f) for f in files), chparam=chparam, top=block['top'],
            liberty=path(lib) if npm else cfg['liberty'],
            delay_ps=int(cfg['period'] * 1000),
            stat_txt=path(os.path.join(out, 'stat.txt')),
            stat_json=path(os.path.join(out, 'stat.json')),
            netlist=path(os.path.join(out, 'netlist.v')))
    ys = os.path.join(out, 'plain_flow.ys')
    with open(ys, 'w') as f:
        f.write(script)
    if npm:
        cmd = ['node', os.path.join(SYNTH_DIR, 'yosys_wasm.mjs'), cfg['yosys_npm'], tree,
               '-q', '-l', 'yosys.log', 'plain_flow.ys']
        what = 'Yosys of @yowasp/yosys (plain_flow.ys)'
    else:
        cmd = ['yosys', '-q', '-l', os.path.join(work, 'yosys.log'), ys]
        what = 'Yosys (plain_flow.ys)'
    return cmd, dict(os.environ), what


def collect_plain_outputs(cfg, work):
    """The npm Yosys wrote its outputs into WORK/tree: move them to WORK."""
    if cfg['yosys'] != 'npm':
        return
    tree = os.path.join(work, 'tree')
    for f in ('netlist.v', 'stat.json', 'stat.txt', 'yosys.log'):
        if os.path.exists(os.path.join(tree, f)):
            os.replace(os.path.join(tree, f), os.path.join(work, f))


def yosys_version(cfg):
    """The version line of the Yosys a run uses (for the reports)."""
    with tempfile.TemporaryDirectory() as empty:
        cmd = (['node', os.path.join(SYNTH_DIR, 'yosys_wasm.mjs'), cfg['yosys_npm'], empty, '-V']
               if cfg['yosys'] == 'npm' else ['yosys', '-V'])
        r = subprocess.run(cmd, capture_output=True, text=True)
    line = (r.stdout.strip().splitlines() or [''])[-1]
    if r.returncode != 0 or not line.startswith('Yosys'):
        raise UsageError(f'cannot run {" ".join(cmd)}: {r.stderr.strip() or line}')
    return line


def synth_block(block, cfg):
    name = block['name']
    work = os.path.join(cfg['work'], name)
    os.makedirs(work, exist_ok=True)
    rec = {'name': name, 'top': block['top'], 'source': block['source']}
    files, params = block_setup(block, cfg)
    if files is None:
        rec['skipped'] = params
        return rec
    rec['params'] = params
    if block['extrapolate']:
        rec['extrapolate'] = list(block['extrapolate'])

    netlist = os.path.join(work, 'netlist.v')
    stat_json = os.path.join(work, 'stat.json')
    box_dump = os.path.join(work, 'boxes.txt')
    for stale in (netlist, stat_json):
        if os.path.exists(stale):
            os.remove(stale)
    if cfg['flow'] == 'plain':
        cmd, env, what = plain_flow_cmd(block, cfg, work, files, params)
    else:
        env = dict(os.environ,
                   SYNTH_TOP=block['top'], SYNTH_FILES=' '.join(files),
                   SYNTH_PARAMS=' '.join(f'{k} {yosys_int(v)}' for k, v in params.items()),
                   SYNTH_BLACKBOX=' '.join(bx[0] for bx in block['boxes']),
                   SYNTH_DRIVER=STA_DRIVER.split('/')[0],
                   SYNTH_BOXES=box_dump,
                   SYNTH_LIBERTY=cfg['liberty'], SYNTH_DELAY_PS=str(int(cfg['period'] * 1000)),
                   SYNTH_NETLIST=netlist, SYNTH_STAT=stat_json)
        cmd = ['yosys', '-q', '-l', os.path.join(work, 'yosys.log'), '-c',
               os.path.join(SYNTH_DIR, 'yosys_flow.tcl')]
        what = 'Yosys (yosys_flow.tcl)'
    # CPU time (Yosys and its ABC processes) next to the wall time: on a shared machine
    # the wall time also measures the other jobs.
    times = os.path.join(work, 'yosys.time')
    if os.access('/usr/bin/time', os.X_OK):
        cmd = ['/usr/bin/time', '-o', times, '-f', '%U %S'] + cmd
    t0 = time.monotonic()
    run_tool(cmd, env, os.path.join(work, 'yosys.out'), what, name)
    rec['yosys_seconds'] = round(time.monotonic() - t0, 1)
    try:
        with open(times) as f:
            rec['yosys_cpu_seconds'] = round(sum(float(x) for x in f.read().split()[-2:]), 1)
    except (OSError, ValueError):
        pass
    if cfg['flow'] == 'plain':
        collect_plain_outputs(cfg, work)

    try:
        area, cells, flops = cell_stats(stat_json, cfg['lib_area'], cfg['lib_seq'])
    except (OSError, ValueError, KeyError) as e:
        raise FlowError(f'{name}: cannot read Yosys statistics {stat_json}: {e}')
    except FlowError as e:
        raise FlowError(f'{name}: {e}')
    if area <= 0 or cells == 0:
        raise FlowError(f'{name}: the mapped design is empty (log {work}/yosys.log)')
    rec.update(area_um2=round(area, 1), nand2_eq=round(area / cfg['nand2_area'], 1),
               cells=cells, flops=flops)
    if block['boxes']:
        rec['storage'] = storage_estimate(block, box_dump, cfg)

    crit, stages, sta_s = run_sta(block, netlist, cfg, work, cfg['period'])
    rec.update(critical_path_ns=round(crit, 3), fmax_mhz=round(1000.0 / crit, 1),
               stages=stages, sta_seconds=round(sta_s, 1), period_ns=cfg['period'])
    return rec


# ------------------------------------------------------------------ reports

def fmt_stages(stages):
    return ', '.join(f'{k} {v["path_ns"]:.2f}' for k, v in stages.items()) or '-'


def fmt_stage_flops(stages):
    return ', '.join(f'{k} {v["flops"]}' for k, v in stages.items()) or '-'


def report_stem(cfg):
    """--report-stem, else synth for the project flow with Debian's Yosys, else
    synth-FLOW-YOSYS."""
    if cfg.get('report_stem'):
        return cfg['report_stem']
    if cfg['flow'] == 'project' and cfg['yosys'] == 'debian':
        return 'synth'
    return f'synth-{cfg["flow"]}-{cfg["yosys"]}'


def write_reports(records, cfg, total_seconds):
    os.makedirs(cfg['reports'], exist_ok=True)
    doc = {
        'liberty': cfg['liberty'],
        'nand2_cell': NAND2_CELL,
        'nand2_area_um2': cfg['nand2_area'],
        'period_ns': cfg['period'],
        'flow': cfg['flow'],
        'yosys': cfg['yosys_version'],
        'jobs': cfg['jobs'],
        'quick': cfg['quick'],
        'total_seconds': round(total_seconds, 1),
        'conventions': ('critical_path_ns = clock period - worst slack (clock-to-Q, logic '
                        'and setup; ideal clock, inputs from a ' + STA_DRIVER.split('/')[0] +
                        ' at the clock edge, outputs captured by a flop, no wire load); '
                        'stages: the slowest path ending at each stage\'s registers'),
        'blocks': {r['name']: r for r in records},
    }
    comp = comparisons(records)
    if comp:
        doc['fused_vs_baseline'] = comp
    extra = extrapolations(records)
    if extra:
        doc['width_extrapolation'] = extra
    peers = peer_rows(records, cfg.get('peers', []), cfg['flow'])
    if peers:
        doc['peers'] = peers
    balance = stage_balance(records)
    if balance:
        doc['stage_balance'] = balance
    stem = report_stem(cfg)
    jpath = os.path.join(cfg['reports'], stem + '.json')
    with open(jpath + '.tmp', 'w') as f:
        json.dump(doc, f, indent=2)
        f.write('\n')
    os.replace(jpath + '.tmp', jpath)

    flow = ('plain: synth -flatten, dfflibmap, abc -D with the liberty; no buffering or sizing'
            if cfg['flow'] == 'plain' else 'project: yosys_flow.tcl, ABC with buffering and sizing')
    md = [f'# Synthesis: {cfg["yosys_version"]} + OpenSTA, OSU 0.18 um standard cells', '',
          f'Flow {flow}. '
          f'Generated by synth/synth.py{" --quick" if cfg["quick"] else ""}. '
          f'NAND2-eq = area / {NAND2_CELL} ({cfg["nand2_area"]:g} um^2). '
          f'Clock {cfg["period"]:g} ns (also ABC\'s delay target); critical path = '
          'period - worst slack, per stage the slowest path into that stage\'s registers. '
          f'{len([r for r in records if "area_um2" in r])} blocks in {total_seconds:.0f} s '
          f'with {cfg["jobs"]} job(s).', '',
          '| block | parameters | area um^2 | NAND2-eq | cells | flops | critical ns | fmax MHz '
          '| stages (ns) | stage flops | Yosys s |',
          '|---|---|---:|---:|---:|---:|---:|---:|---|---|---:|']
    for r in records:
        if 'skipped' in r:
            md.append(f'| {r["name"]} | skipped: {r["skipped"]} | | | | | | | | | |')
            continue
        p = r.get('params', {})
        ptxt = ' '.join(f'{k}={p[k]}' for k in ('L', 'F', 'Depth') if k in p) or '-'
        md.append(f'| {r["name"]} | {ptxt} | {r["area_um2"]:,.0f} | {r["nand2_eq"]:,.0f} | '
                  f'{r["cells"]:,} | {r["flops"]:,} | {r["critical_path_ns"]:.2f} | '
                  f'{r["fmax_mhz"]:.0f} | {fmt_stages(r["stages"])} | '
                  f'{fmt_stage_flops(r["stages"])} | {r["yosys_seconds"]:.0f} |')
    if comp:
        md += ['', '## Fused dot product vs chained FMAs (same parameters)', '',
               'Targets (issue 8): fused area <= 0.7 x baseline; each fused stage no slower '
               'than the baseline\'s stage (one FMA). The baseline is systolic, L stages, '
               'without input skew registers (rtl/baseline/fma_chain.sv).', '',
               '| profile | fused um^2 | baseline um^2 | area ratio | <= 0.7 | '
               'fused slowest stage ns | baseline stage ns | stage <= | fused latency | baseline latency |',
               '|---|---:|---:|---:|:-:|---:|---:|:-:|---:|---:|']
        for c in comp:
            md.append(f'| {c["profile"]} | {c["fused_area_um2"]:,.0f} | '
                      f'{c["baseline_area_um2"]:,.0f} | {c["area_ratio"]:.3f} | '
                      f'{"yes" if c["area_target_met"] else "no"} | '
                      f'{c["fused_worst_stage_ns"]:.2f} | {c["baseline_worst_stage_ns"]:.2f} | '
                      f'{"yes" if c["stage_target_met"] else "no"} | {c["fused_latency"]} | '
                      f'{c["baseline_latency"]} |')
    if extra:
        md += ['', '## Extrapolated to the full width (estimates, from the slices above)', '',
               'A block synthesized at two or more widths of its bit-parallel datapath '
               '(Yosys does not finish the full width in reasonable time): area, cells and '
               'flops fitted as fixed + per-bit x width (least squares over the measured '
               'widths) and evaluated at the full width; the bank bits scale exactly. '
               'Timing is the slices\' (the bit slices are parallel).', '',
               '| top | parameter | measured at | per bit um^2 | fixed um^2 | area um^2 at full '
               '| cells | flops | bank bits | SRAM um^2 |',
               '|---|---|---|---:|---:|---:|---:|---:|---:|---:|']
        for e in extra:
            md.append(f'| {e["top"]} | {e["param"]}={e["full"]} | '
                      f'{", ".join(str(w) for w in e["measured_widths"])} | '
                      f'{e["area_per_bit_um2"]:,.0f} | {e["area_fixed_um2"]:,.0f} | '
                      f'{e["area_um2"]:,.0f} | {e["cells"]:,} | {e["flops"]:,} | '
                      f'{e["bank_bits"]:,} | {e["sram_area_um2"]:,.0f} |')
    if peers:
        md += ['', '## Peers (synth/peers.txt), same flow', '',
               f'Targets (issue 31): area <= 0.7 x the peer\'s; slowest stage no slower than '
               f'the peer\'s slowest reg->reg. This run: {cfg["yosys_version"]}; the peer\'s '
               'Yosys is in its note.', '',
               '| peer | um^2 | FFs | slowest ns | our block | um^2 | FFs | slowest ns | '
               'area ratio | <= 0.7 | stage <= | peer measured with |',
               '|---|---:|---:|---:|---|---:|---:|---:|---:|:-:|:-:|---|']
        for p in peers:
            md.append(f'| {p["peer"]} | {p["peer_area_um2"]:,.0f} | {p["peer_flops"]} | '
                      f'{p["peer_slowest_ns"]:.2f} | {p["block"]} | {p["area_um2"]:,.0f} | '
                      f'{p["flops"]} | {p["slowest_ns"]:.2f} | {p["area_ratio"]:.3f} | '
                      f'{"yes" if p["area_target_met"] else "no"} | '
                      f'{"yes" if p["stage_target_met"] else "no"} | {p["note"]} |')
    if balance:
        md += ['', '## Stage balance of the FEDP blocks', '',
               'Target (issue 31): every block\'s slowest stage within 20% of its mean stage.',
               '', '| block | stages | area um^2 | flops | slowest ns | mean ns | slowest/mean '
               '| <= 1.2 |', '|---|---:|---:|---:|---:|---:|---:|:-:|']
        for b in balance:
            md.append(f'| {b["block"]} | {b["depth"]} | {b["area_um2"]:,.0f} | {b["flops"]} | '
                      f'{b["slowest_ns"]:.2f} | {b["mean_ns"]:.2f} | '
                      f'{b["slowest_over_mean"]:.2f} | {"yes" if b["balanced"] else "no"} |')
    storage = [r for r in records if 'storage' in r]
    if storage:
        md += ['', '## Black-boxed storage (estimated, not in the areas above)', '',
               f'SRAM at {SRAM_UM2_PER_BIT:g} um^2/bit: a 6T cell of ~140 F^2 is 4.5 um^2 at '
               'F = 0.18 um, over ~60% array efficiency (an assumption, not a characterized '
               'macro). Flop-based: one DFFPOSX1 and one MUX2X1 of this library per bit. '
               'The memories are timed as macros with the access and setup times of '
               'synth/blocks.txt (box_read / box_write stages).',
               '', '| block | memory | instances | bits | SRAM um^2 | flop-based um^2 |',
               '|---|---|---:|---:|---:|---:|']
        for r in storage:
            for mod, st in r['storage'].items():
                md.append(f'| {r["name"]} | {mod} ({st["bits_expr"]}) | {st["instances"]} | '
                          f'{st["bits"]:,} | {st["sram_area_um2"]:,.0f} | '
                          f'{st["flop_area_um2"]:,.0f} |')
    mpath = os.path.join(cfg['reports'], stem + '.md')
    with open(mpath, 'w') as f:
        f.write('\n'.join(md) + '\n')
    return jpath, mpath


def read_peers(path):
    """The peers of synth/peers.txt: [{name, block, area_um2, flops, slowest_ns, flow,
    note}]; a malformed line is an error at FILE:LINE."""
    peers = []
    if not os.path.isfile(path):
        return peers
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            head, _, note = line.partition(' -- ')
            w = head.split()
            try:
                if len(w) != 7 or w[0] != 'peer' or w[6] not in ('project', 'plain'):
                    raise ValueError
                peers.append({'name': w[1], 'block': w[2], 'area_um2': float(w[3]),
                              'flops': int(w[4]), 'slowest_ns': float(w[5]), 'flow': w[6],
                              'note': note.strip()})
            except ValueError:
                raise UsageError(f'{path}:{n}: expected "peer NAME BLOCK AREA_UM2 FLOPS '
                                 f'SLOWEST_NS project|plain -- NOTE"')
    return peers


def peer_rows(records, peers, flow):
    """Our block beside each peer measured with the same flow (targets of issue 31: area
    <= 0.7 x the peer's, slowest stage no slower than the peer's)."""
    by_name = {r['name']: r for r in records if 'area_um2' in r}
    rows = []
    for p in peers:
        r = by_name.get(p['block'])
        if r is None or p['flow'] != flow or not r['stages']:
            continue
        slowest = max(v['path_ns'] for v in r['stages'].values())
        rows.append({'peer': p['name'], 'block': r['name'], 'note': p['note'],
                     'peer_area_um2': p['area_um2'], 'peer_flops': p['flops'],
                     'peer_slowest_ns': p['slowest_ns'], 'area_um2': r['area_um2'],
                     'flops': r['flops'], 'slowest_ns': slowest,
                     'area_ratio': round(r['area_um2'] / p['area_um2'], 3),
                     'area_target_met': r['area_um2'] <= 0.7 * p['area_um2'],
                     'stage_target_met': slowest <= p['slowest_ns']})
    return rows


def stage_balance(records):
    """Per pipelined block: its depth, slowest and mean stage and their ratio (issue 31:
    the slowest within 20% of the mean)."""
    rows = []
    for r in records:
        st = [v['path_ns'] for v in r.get('stages', {}).values() if v.get('flops', 0) > 0]
        if r.get('top') != 'fedp' or not st:
            continue
        mean = sum(st) / len(st)
        rows.append({'block': r['name'], 'depth': len(st), 'area_um2': r['area_um2'],
                     'flops': r['flops'], 'slowest_ns': max(st), 'mean_ns': round(mean, 3),
                     'slowest_over_mean': round(max(st) / mean, 3),
                     'balanced': max(st) <= 1.2 * mean})
    return rows


def comparisons(records):
    by = {r['name']: r for r in records if 'area_um2' in r}
    out = []
    for name, r in by.items():
        if not name.startswith('fedp_'):
            continue
        b = by.get('baseline_' + name[len('fedp_'):])
        if not b:
            continue
        fw = max(v['path_ns'] for v in r['stages'].values())
        bw = max(v['path_ns'] for v in b['stages'].values())
        ratio = r['area_um2'] / b['area_um2']
        out.append({'profile': name[len('fedp_'):], 'fused': name, 'baseline': b['name'],
                    'fused_area_um2': r['area_um2'], 'baseline_area_um2': b['area_um2'],
                    'area_ratio': round(ratio, 3), 'area_target_met': ratio <= 0.7,
                    'fused_worst_stage_ns': fw, 'baseline_worst_stage_ns': bw,
                    'stage_target_met': fw <= bw,
                    'fused_latency': len(r['stages']),
                    'baseline_latency': b['params'].get('L', len(b['stages']))})
    return out


def extrapolations(records):
    """Per top with an `extrapolate=PARAM:FULL` option and blocks at two or more values
    of PARAM: a least-squares line through (PARAM, figure) evaluated at FULL."""
    groups = {}
    for r in records:
        if 'area_um2' in r and r.get('extrapolate'):
            param, full = r['extrapolate']
            if param in r['params']:
                groups.setdefault((r['top'], param, full), []).append(r)
    out = []
    for (top, param, full), rs in sorted(groups.items()):
        xs = [r['params'][param] for r in rs]
        if len(set(xs)) < 2:
            continue

        def fit(ys):
            n = len(xs)
            mx, my = sum(xs) / n, sum(ys) / n
            slope = (sum((x - mx) * (y - my) for x, y in zip(xs, ys)) /
                     sum((x - mx) ** 2 for x in xs))
            return my - slope * mx, slope

        a0, a1 = fit([r['area_um2'] for r in rs])
        c0, c1 = fit([r['cells'] for r in rs])
        f0, f1 = fit([r['flops'] for r in rs])
        bits = sram = 0
        for r in rs[:1]:   # bank bits are proportional to the width
            for st in r.get('storage', {}).values():
                bits += st['bits'] * full // r['params'][param]
                sram += st['sram_area_um2'] * full / r['params'][param]
        out.append({'top': top, 'param': param, 'full': full,
                    'measured_widths': sorted(xs), 'blocks': [r['name'] for r in rs],
                    'area_per_bit_um2': round(a1, 1), 'area_fixed_um2': round(a0, 1),
                    'area_um2': round(a0 + a1 * full, 1),
                    'nand2_eq': round((a0 + a1 * full) / rs[0]['area_um2'] *
                                      rs[0]['nand2_eq'], 1),
                    'cells': round(c0 + c1 * full), 'flops': round(f0 + f1 * full),
                    'bank_bits': bits, 'sram_area_um2': round(sram, 1)})
    return out


def block_setup(block, cfg):
    """(files, params) of a block, or (None, reason) when its top is not in its files."""
    files = cfg['base_files'] + [f for lst in block['lists']
                                 for f in read_file_list(os.path.join(RTL_DIR, lst))]
    if not find_module(files, block['top']):
        elsewhere = rtl_modules().get(block['top'])
        return None, (f'{os.path.relpath(elsewhere, ROOT)} is not in rtl/rtl.f'
                      if elsewhere else f'no module {block["top"]} in rtl/ yet')
    params = {}
    if block['source'].startswith('fedp:'):
        full = cfg['fedp_params'][block['name']]
        missing = [p for p in block['takes'] if p not in full]
        if missing:
            raise FlowError(f'{block["name"]}: parameter set has no {missing}')
        params = {p: full[p] for p in block['takes']}
    elif block['source'] != '-':
        raise FlowError(f'{block["where"]}: unknown source {block["source"]!r}')
    params.update(block['set'])
    return files, params


def lint(blocks, tcsim):
    """Verilator -Wall on every block with its parameters (exit 0 when all are clean)."""
    if not shutil.which('verilator'):
        print('synth.py: verilator is not on PATH', file=sys.stderr)
        return 2
    cfg = {'base_files': read_file_list(os.path.join(RTL_DIR, 'rtl.f')),
           'fedp_params': fedp_params(tcsim, blocks)}
    failed = 0
    for b in blocks:
        try:
            files, params = block_setup(b, cfg)
        except FlowError as e:
            print(f'synth.py: FAILED {e}', file=sys.stderr)
            failed += 1
            continue
        if files is None:
            print(f'  {b["name"]:28s} skipped: {params}')
            continue
        cmd = (['verilator', '--lint-only', '-Wall', '--top-module', b['top']] +
               [f'-G{k}={v}' for k, v in params.items()] + files)
        r = subprocess.run(cmd, capture_output=True, text=True)
        print(f'  {b["name"]:28s} {"clean" if r.returncode == 0 else "FAILED"}')
        if r.returncode != 0:
            print(r.stdout + r.stderr)
            failed += 1
    return 1 if failed else 0


# ------------------------------------------------------------------ Slurm

def slurm_submit(a, blocks):
    """One array task per block (each a `synth.py --only BLOCK` on the shared project),
    then the merge job (afterany). The tools are checked on the nodes, by each task: a
    login node often has no Yosys. Nothing is written before the Slurm checks pass."""
    try:
        submit.check_client(a.partition)
    except submit.SlurmError as e:
        raise UsageError(str(e))
    reports = os.path.abspath(a.reports)
    opts = ['--work', os.path.abspath(a.work), '--tcsim', os.path.abspath(a.tcsim),
            '--liberty', os.path.abspath(a.liberty), '--period', repr(a.period),
            '--blocks', os.path.abspath(a.blocks)]
    names = [b['name'] for b in blocks]
    run = submit.new_run_dir(reports, 'synth')
    doc = {'reports': reports, 'blocks': names, 'quick': a.quick, 'options': opts,
           'submitted': time.time()}
    submit.write_json(os.path.join(run, 'run.json'), doc)
    common = [f'--partition={a.partition}'] if a.partition else []
    try:
        array, merge = submit.submit(run, 'synth', len(names), common,
                                     [ROOT, run, ','.join(names)] + opts, [ROOT, run], a.time)
    except submit.SlurmError as e:
        shutil.rmtree(run, ignore_errors=True)
        raise UsageError(str(e))
    doc.update(array=array, merge=merge)
    submit.write_json(os.path.join(run, 'run.json'), doc)
    print(f'synth.py: submitted {len(names)} blocks as array job {array} and merge job {merge}'
          f'\n  block logs: {run}/shard-<i>.out\n  summary:    {run}/summary.txt\n'
          f'  reports:    {reports}/synth.json, synth.md (when every block was built)',
          flush=True)
    return submit.wait_for_result(run, array, merge, 'synth.py') if a.wait else 0


def slurm_merge(run):
    """The merge job: every task's record in one synth.json and synth.md, in blocks.txt
    order; no report when a block failed or its task was stopped (as without Slurm)."""
    run = os.path.abspath(run)
    try:
        doc = submit.read_json(os.path.join(run, 'run.json'))
    except (OSError, ValueError) as e:
        print(f'synth.py: --slurm-merge {run}: no readable run.json: {e}', file=sys.stderr)
        return 2
    states = submit.task_states(doc['array']) if doc.get('array') else {}
    records, failed, task = [], [], {}
    for i, name in enumerate(doc['blocks'], 1):
        try:
            task = submit.read_json(os.path.join(run, f'block-{i}', 'synth.json'))
            records.append(task['blocks'][name])
        except (OSError, ValueError, KeyError):
            failed.append((i, name, states.get(i, 'unknown')))
    lines = []
    for r in records:
        lines.append(f'  {r["name"]:28s} skipped: {r["skipped"]}' if 'skipped' in r else
                     f'  {r["name"]:28s} {r["area_um2"]:>12,.0f} um^2 {r["cells"]:>8,} cells '
                     f'{r["critical_path_ns"]:7.2f} ns  yosys {r["yosys_seconds"]:.0f} s')
    for i, name, state in failed:
        lines.append(f'FAILED {name} (task {i}, Slurm state {state}): see {run}/shard-{i}.out; '
                     'rerun it here:\n  ' + ' '.join([os.path.join(SYNTH_DIR, 'synth.py'),
                                                     '--only', name] + doc['options']))
    total = time.time() - doc.get('submitted', time.time())
    if failed:
        lines.append(f'synth.py: {len(failed)} block(s) failed; no report written '
                     f'({doc["reports"]} left as it was)')
        return submit.record_result(run, '\n'.join(lines) + '\n', 1)
    lib_area = {NAND2_CELL: task.get('nand2_area_um2', 0.0)}
    # the tasks ran the project flow with Debian's Yosys (--slurm allows no other); the
    # version is the one a task's report names
    cfg = {'liberty': task.get('liberty', ''), 'nand2_area': lib_area[NAND2_CELL],
           'period': task.get('period_ns', DEFAULT_PERIOD_NS), 'jobs': len(records),
           'quick': doc['quick'], 'reports': doc['reports'],
           'flow': task.get('flow', 'project'), 'yosys': 'debian',
           'yosys_version': task.get('yosys', ''), 'report_stem': '',
           'peers': read_peers(os.path.join(SYNTH_DIR, 'peers.txt'))}
    jpath, mpath = write_reports(records, cfg, total)
    lines.append(f'synth.py: {len(records)} blocks in {total:.0f} s, one Slurm task each '
                 f'(array {doc.get("array", "?")}) -> {jpath}, {mpath}')
    return submit.record_result(run, '\n'.join(lines) + '\n', 0)


# ------------------------------------------------------------------ main

def positive_float(text):
    """--period: a finite number of ns above 0 (argparse exits 2 naming the option)."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f'{text!r} is not a number')
    if not math.isfinite(v) or v <= 0:
        raise argparse.ArgumentTypeError(f'{text!r} is not a finite number above 0')
    return v


def positive_int(text):
    """--jobs: an integer of at least 1."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f'{text!r} is not an integer')
    if v < 1:
        raise argparse.ArgumentTypeError(f'{text!r} is not at least 1')
    return v


def select(blocks, a):
    """The blocks that --only (names or globs, each must match one) or --quick select."""
    if a.only:
        want = a.only.split(',')
        unknown = [w for w in want if not any(fnmatch.fnmatchcase(b['name'], w)
                                              for b in blocks)]
        if unknown:
            raise UsageError(f'unknown block(s) {unknown} (see {a.blocks})')
        return [b for b in blocks if any(fnmatch.fnmatchcase(b['name'], w) for w in want)]
    if a.quick:
        quick = [b for b in blocks if b['quick']]
        if not quick:   # an empty report would look like a run that passed
            top = f' of top {a.only_top}' if a.only_top else ''
            raise UsageError(f'--quick: no block{top} in {a.blocks} is marked quick')
        return quick
    return blocks


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--quick', action='store_true', help='only the blocks marked quick')
    ap.add_argument('--only', default='', help='comma-separated block names or globs')
    ap.add_argument('--jobs', type=positive_int, default=os.cpu_count() or 1)
    ap.add_argument('--work', default=os.path.join(ROOT, 'build', 'synth'),
                    help='per-block logs and netlists')
    ap.add_argument('--reports', default=os.path.join(ROOT, 'build', 'reports'),
                    help='where synth.json and synth.md go')
    ap.add_argument('--tcsim', default=os.path.join(ROOT, 'build', 'tcsim'),
                    help='the tcsim whose fedp-params gives the FEDP blocks their '
                         'parameters (default: build/tcsim)')
    ap.add_argument('--liberty', default=DEFAULT_LIBERTY)
    ap.add_argument('--period', type=positive_float, default=DEFAULT_PERIOD_NS,
                    help='clock, ns (finite, above 0)')
    ap.add_argument('--blocks', default=os.path.join(SYNTH_DIR, 'blocks.txt'))
    ap.add_argument('--sta-only', default='', metavar='NAME',
                    help='time --netlist as block NAME; no synthesis, no reports')
    ap.add_argument('--netlist', default='')
    ap.add_argument('--lint', action='store_true',
                    help='only `verilator --lint-only -Wall` of the selected blocks')
    ap.add_argument('--only-top', default='', metavar='TOP', help='the blocks of one top')
    ap.add_argument('--flow', choices=('project', 'plain'), default='project',
                    help='yosys_flow.tcl (buffering and sizing) or plain_flow.ys (none)')
    ap.add_argument('--yosys', choices=('debian', 'npm'), default='debian',
                    help="Debian's yosys on PATH, or the npm package @yowasp/yosys")
    ap.add_argument('--yosys-npm', default=DEFAULT_YOSYS_NPM, metavar='DIR',
                    help='the installed @yowasp/yosys package (default: %(default)s)')
    ap.add_argument('--report-stem', default='', metavar='STEM',
                    help='name the reports STEM.json and STEM.md (default: synth, or '
                         'synth-FLOW-YOSYS for another flow or Yosys)')
    sl = ap.add_argument_group('Slurm (docs/sim.md; the project and its build on a shared '
                               'file system)')
    sl.add_argument('--slurm', action='store_true',
                    help='submit one array task per selected block and a merge job that '
                    'writes the reports; prints the job ids')
    sl.add_argument('--partition', default='', help='Slurm partition (default: the cluster\'s)')
    sl.add_argument('--time', default='', metavar='LIMIT',
                    help='Slurm time limit of each block, e.g. 30 or 2:00:00')
    sl.add_argument('--wait', action='store_true',
                    help='wait for the merge, print its summary, exit with its status')
    sl.add_argument('--slurm-merge', default='', metavar='RUN', help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.slurm_merge:            # the merge job (sim/slurm/synth_merge.sbatch)
        return slurm_merge(a.slurm_merge)
    given = [o for o, v in (('--partition', a.partition), ('--time', a.time),
                            ('--wait', a.wait)) if v]
    if given and not a.slurm:
        print(f'synth.py: {given[0]} goes with --slurm', file=sys.stderr)
        return 2
    if a.slurm and (a.lint or a.sta_only):
        print('synth.py: --slurm runs the synthesis flow, not --lint or --sta-only',
              file=sys.stderr)
        return 2
    if a.time and not re.fullmatch(r'\d+(:\d+){0,2}|\d+-\d+(:\d+){0,2}', a.time):
        print(f'synth.py: --time must be a Slurm time limit (30, 2:00:00, 1-0), got {a.time!r}',
              file=sys.stderr)
        return 2
    t0 = time.monotonic()
    try:
        blocks = read_blocks(a.blocks)
        if a.only_top:
            blocks = [b for b in blocks if b['top'] == a.only_top]
            if not blocks:
                raise UsageError(f'no block of top {a.only_top} in {a.blocks}')
        check_tops(blocks)
        selected = select(blocks, a)
        if a.lint:
            return lint(selected, a.tcsim)
        if a.yosys == 'npm' and a.flow != 'plain':
            raise UsageError('--yosys npm runs --flow plain only (the project flow is Tcl, '
                             'which the WebAssembly Yosys lacks)')
        if a.slurm:
            if a.flow != 'project' or a.yosys != 'debian' or a.report_stem:
                raise UsageError('--slurm runs the project flow with Debian\'s Yosys (not '
                                 '--flow plain, --yosys npm or --report-stem)')
            return slurm_submit(a, selected)
        for tool in ('node' if a.yosys == 'npm' else 'yosys', 'sta'):
            if not shutil.which(tool):
                raise UsageError(f'{tool} is not on PATH (Debian packages '
                                 f'{"nodejs" if tool == "node" else "yosys"}, opensta)')
        if a.yosys == 'npm' and not os.path.isfile(os.path.join(a.yosys_npm, 'gen',
                                                                'bundle.js')):
            raise UsageError(f'--yosys-npm {a.yosys_npm}: no @yowasp/yosys package there '
                             '(./run setup --yosys-npm installs it)')
        lib_area, lib_seq = read_liberty(a.liberty)
        if a.sta_only:
            sel = [b for b in blocks if b['name'] == a.sta_only]
            if not sel:
                raise UsageError(f'no block {a.sta_only} in {a.blocks}')
            if not os.path.isfile(a.netlist):
                raise UsageError(f'netlist {a.netlist!r} does not exist')
            cfg = {'liberty': os.path.abspath(a.liberty), 'lib_seq': lib_seq,
                   'lib_area': lib_area}
            work = os.path.join(a.work, sel[0]['name'] + '.sta-only')
            os.makedirs(work, exist_ok=True)
            try:
                crit, stages, _ = run_sta(sel[0], os.path.abspath(a.netlist), cfg, work,
                                          a.period)
            except FlowError as e:
                print(f'synth.py: FAILED {e}', file=sys.stderr)
                return 1
            print(f'{a.sta_only}: critical path {crit:.3f} ns; stages {fmt_stages(stages)}')
            return 0
        blocks = selected
        cfg = {
            'liberty': os.path.abspath(a.liberty), 'lib_area': lib_area, 'lib_seq': lib_seq,
            'nand2_area': lib_area[NAND2_CELL], 'period': a.period, 'jobs': a.jobs,
            'quick': a.quick, 'work': os.path.abspath(a.work),
            'reports': os.path.abspath(a.reports),
            'base_files': read_file_list(os.path.join(RTL_DIR, 'rtl.f')),
            'fedp_params': fedp_params(a.tcsim, blocks),
            'flow': a.flow, 'yosys': a.yosys, 'yosys_npm': os.path.abspath(a.yosys_npm),
            'peers': read_peers(os.path.join(SYNTH_DIR, 'peers.txt')),
            'report_stem': a.report_stem,
        }
        cfg['yosys_version'] = yosys_version(cfg)
    except UsageError as e:
        print(f'synth.py: {e}', file=sys.stderr)
        return 2

    # Largest first (L is a fair proxy), so that two jobs finish together.
    order = sorted(blocks, key=lambda b: -cfg['fedp_params'].get(b['name'], {}).get('L', 0))
    records = {}
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=cfg['jobs']) as pool:
        futs = {pool.submit(synth_block, b, cfg): b for b in order}
        for fut in concurrent.futures.as_completed(futs):
            b = futs[fut]
            try:
                r = fut.result()
            except (FlowError, UsageError, OSError) as e:
                failures.append(str(e))
                print(f'synth.py: FAILED {e}', file=sys.stderr, flush=True)
                continue
            records[b['name']] = r
            if 'skipped' in r:
                print(f'  {r["name"]:28s} skipped: {r["skipped"]}', flush=True)
            else:
                print(f'  {r["name"]:28s} {r["area_um2"]:>12,.0f} um^2 {r["cells"]:>8,} cells '
                      f'{r["critical_path_ns"]:7.2f} ns  yosys {r["yosys_seconds"]:.0f} s',
                      flush=True)
    ordered = [records[b['name']] for b in blocks if b['name'] in records]
    total = time.monotonic() - t0
    if failures:
        print(f'synth.py: {len(failures)} block(s) failed; no report written', file=sys.stderr)
        return 1
    jpath, mpath = write_reports(ordered, cfg, total)
    print(f'synth.py: {len(ordered)} blocks in {total:.0f} s -> {jpath}, {mpath}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
