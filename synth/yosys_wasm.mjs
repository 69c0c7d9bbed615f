// yosys_wasm.mjs - runs the Yosys of the npm package @yowasp/yosys (Yosys compiled to
// WebAssembly) under Node, for synth/synth.py's --yosys npm.
//
//   node yosys_wasm.mjs PACKAGE_DIR WORK_DIR YOSYS_ARG...
//
// The WebAssembly Yosys sees no host file system, only a tree of files handed to it:
// every file under WORK_DIR goes in (paths relative to WORK_DIR, which is Yosys's current
// folder), and every file the run leaves in the tree that is new or changed is written
// back under WORK_DIR. PACKAGE_DIR is the installed package (node_modules/@yowasp/yosys).
// The exit status is Yosys's.
import { readdirSync, readFileSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pkgDir, workDir, ...args] = process.argv.slice(2);
if (!pkgDir || !workDir) {
  process.stderr.write('usage: node yosys_wasm.mjs PACKAGE_DIR WORK_DIR YOSYS_ARG...\n');
  process.exit(2);
}

// The tree of runtime-js: a folder is an object of names, a file its bytes.
function readTree(dir) {
  const tree = {};
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    tree[name] = statSync(p).isDirectory() ? readTree(p) : new Uint8Array(readFileSync(p));
  }
  return tree;
}

function same(a, b) {
  if (!(a instanceof Uint8Array) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function writeBack(tree, before, dir) {
  for (const [name, entry] of Object.entries(tree)) {
    const p = join(dir, name);
    if (entry instanceof Uint8Array) {
      if (!before || !same(before[name], entry)) {
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, entry);
      }
    } else {
      writeBack(entry, before ? before[name] : undefined, p);
    }
  }
}

const { runYosys } = await import(pathToFileURL(join(pkgDir, 'gen', 'bundle.js')).href);
const input = readTree(workDir);
let status = 0;
let out;
try {
  out = await runYosys(args, input, { decodeASCII: false });
} catch (e) {
  // A non-zero exit: the tree is on the error, and the code on its exitCode.
  if (e.files === undefined) throw e;
  out = e.files;
  status = e.exitCode ?? 1;
}
writeBack(out, readTree(workDir), workDir);
process.exit(status);
