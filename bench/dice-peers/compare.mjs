#!/usr/bin/env node
// compare.mjs - join `fray bench` output with bench.mjs output and print the
// side-by-side table.
//
//   node compare.mjs --fray fray.jsonl --peers peers.jsonl [--corpus FILE]
//                    [--markdown] [--strict]
//
// --dir DIR adds every DIR/fray.*.jsonl and DIR/peers.*.jsonl.
// --fray and --peers may each be given several times (one file per round):
// each engine's time for an expression is then the median over the rounds,
// which shrugs off a round disturbed by other work on the machine.
//
// Lines are joined on the expression text (exactly, else with surrounding
// space trimmed and inner runs of space collapsed). Rows follow the corpus
// order when --corpus is given, else fray's order. Lines that are not JSON
// objects, and "total" lines, are ignored. Ratios are peer ns / fray ns, so
// "60x" means fray took a sixtieth of the peer's time.
//
// --markdown prints the table as Markdown (for bench/README.md).
// --strict exits 1 when a target is missed: median ratio against
// rpg-dice-roller below 50, or droll faster than fray on any expression.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const RPG = 'rpg-dice-roller';
const DROLL = 'droll';
const RPG_TARGET = 50;

function usage(msg) {
  if (msg) process.stderr.write(`compare.mjs: ${msg}\n`);
  process.stderr.write('usage: node compare.mjs (--fray FILE --peers FILE)... | --dir DIR [--corpus FILE] [--markdown] [--strict]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const opt = { markdown: false, strict: false, fray: [], peers: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--fray') opt.fray.push(val());
    else if (a === '--peers') opt.peers.push(val());
    else if (a === '--dir') {
      const dir = val();
      for (const f of readdirSync(dir).sort()) {
        if (/^fray\..*\.jsonl$/.test(f)) opt.fray.push(join(dir, f));
        else if (/^peers\..*\.jsonl$/.test(f)) opt.peers.push(join(dir, f));
      }
    } else if (a === '--corpus') opt.corpus = val();
    else if (a === '--markdown') opt.markdown = true;
    else if (a === '--strict') opt.strict = true;
    else usage(`unknown argument ${a}`);
  }
  if (!opt.peers.length) usage('need peer results (--peers, or --dir)');
  return opt;
}

const norm = (s) => String(s).trim().replace(/\s+/g, ' ');

function readJsonLines(path, what) {
  const rows = [];
  let skipped = 0;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const t = line.trim();
    if (t === '') continue;
    let obj;
    try {
      obj = JSON.parse(t);
    } catch {
      skipped++;
      continue;
    }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
      skipped++;
      continue;
    }
    if (obj.total === true) continue;
    if (typeof obj.expr !== 'string') {
      skipped++;
      continue;
    }
    rows.push(obj);
  }
  if (skipped) process.stderr.write(`compare.mjs: ignored ${skipped} line(s) of ${what} that were not expression results\n`);
  return rows;
}

// Map expression -> records (one a round), looked up exactly first, then
// normalised. get() merges the rounds: the median ns_per_roll of those that
// have one, else the first record (an error or "unsupported" line).
class Index {
  constructor() {
    this.exact = new Map();
    this.loose = new Map();
  }
  add(expr, rec) {
    for (const [map, k] of [[this.exact, expr], [this.loose, norm(expr)]]) {
      if (!map.has(k)) map.set(k, []);
      map.get(k).push(rec);
    }
  }
  get(expr) {
    const recs = this.exact.get(expr) ?? this.loose.get(norm(expr));
    if (!recs) return undefined;
    const timed = recs.filter((r) => isNum(r.ns_per_roll));
    if (!timed.length) return recs[0];
    return { ...timed[0], ns_per_roll: median(timed.map((r) => r.ns_per_roll)), rounds: timed.length };
  }
}

const isNum = (x) => typeof x === 'number' && Number.isFinite(x) && x > 0;

function median(xs) {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function fmtNs(x) {
  if (!isNum(x)) return null;
  if (x >= 100) return Math.round(x).toLocaleString('en-US');
  return x.toFixed(1);
}

function fmtRatio(r) {
  if (r === null) return '';
  if (r >= 100) return `${Math.round(r)}x`;
  if (r >= 10) return `${r.toFixed(1)}x`;
  return `${r.toFixed(2)}x`;
}

function main() {
  const opt = parseArgs(process.argv.slice(2));
  // fray's lines come from its own files, or from bench.mjs --fray, which
  // interleaves them with the peers' lines as "peer": "fray".
  const mixed = opt.peers.flatMap((f) => readJsonLines(f, 'peer output'));
  const frayRows = [
    ...opt.fray.flatMap((f) => readJsonLines(f, 'fray output')),
    ...mixed.filter((r) => r.peer === 'fray'),
  ];
  const peerRows = mixed.filter((r) => r.peer !== 'fray');
  if (!frayRows.length) usage('no fray results (--fray, or peer files from bench.mjs --fray)');

  const fray = new Index();
  for (const r of frayRows) fray.add(r.expr, r);
  const peers = { [RPG]: new Index(), [DROLL]: new Index() };
  for (const r of peerRows) if (peers[r.peer]) peers[r.peer].add(r.expr, r);

  let order;
  if (opt.corpus) {
    order = readFileSync(opt.corpus, 'utf8').split('\n').map((l) => l.replace(/\r$/, ''))
      .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  } else {
    order = [...new Set(frayRows.map((r) => r.expr))];
  }

  const rows = [];
  const footnotes = [];
  const rpgRatios = [];
  const drollLosses = [];
  let drollReadable = 0;
  let missingFray = 0;

  for (const expr of order) {
    const f = fray.get(expr);
    const fns = f && isNum(f.ns_per_roll) ? f.ns_per_roll : null;
    if (fns === null) missingFray++;
    const row = { expr, fray: fns === null ? (f ? 'error' : 'missing') : fmtNs(fns) };
    for (const [peer, col] of [[RPG, 'rpg'], [DROLL, 'droll']]) {
      const p = peers[peer].get(expr);
      let cell;
      let ratio = null;
      if (!p) cell = 'missing';
      else if (p.unsupported) cell = 'n/a';
      else if (!isNum(p.ns_per_roll)) cell = 'error';
      else {
        cell = fmtNs(p.ns_per_roll);
        if (p.notes && p.notes.length) {
          cell += '*';
          footnotes.push(`${expr} -> ${peer} ran \`${p.translated}\`: ${p.notes.join('; ')}`);
        }
        if (fns !== null) ratio = p.ns_per_roll / fns;
      }
      row[col] = cell;
      row[`${col}Ratio`] = fmtRatio(ratio);
      if (peer === RPG && ratio !== null) rpgRatios.push(ratio);
      if (peer === DROLL && p && !p.unsupported && isNum(p.ns_per_roll)) {
        drollReadable++;
        if (ratio === null || ratio <= 1) drollLosses.push(`${expr} (${ratio === null ? 'fray has no result' : fmtRatio(ratio)})`);
      }
    }
    rows.push(row);
  }

  const head = {
    expr: 'expression', fray: 'fray ns', rpg: `${RPG} ns`, rpgRatio: 'ratio',
    droll: `${DROLL} ns`, drollRatio: 'ratio',
  };
  const cols = ['expr', 'fray', 'rpg', 'rpgRatio', 'droll', 'drollRatio'];
  const right = new Set(['fray', 'rpg', 'rpgRatio', 'droll', 'drollRatio']);
  const out = [];
  if (opt.markdown) {
    const esc = (s) => String(s).replace(/[|*]/g, '\\$&');
    out.push(`| ${cols.map((c) => head[c]).join(' | ')} |`);
    out.push(`|${cols.map((c) => (right.has(c) ? '---:' : ':---')).join('|')}|`);
    for (const r of rows) out.push(`| ${cols.map((c) => (c === 'expr' ? `\`${esc(r[c])}\`` : esc(r[c]))).join(' | ')} |`);
  } else {
    const width = {};
    for (const c of cols) width[c] = Math.max(head[c].length, ...rows.map((r) => String(r[c]).length));
    const line = (r) => cols.map((c) => (right.has(c) ? String(r[c]).padStart(width[c]) : String(r[c]).padEnd(width[c]))).join('  ').trimEnd();
    out.push(line(head));
    out.push(cols.map((c) => '-'.repeat(width[c])).join('  '));
    for (const r of rows) out.push(line(r));
  }
  out.push('');
  const rounds = opt.peers.length;
  out.push(`ns = nanoseconds per parse-and-roll${rounds > 1 ? `, median of ${rounds} rounds` : ''}; ratio = peer ns / fray ns`
    + ' (how many times faster fray is); n/a = the peer cannot read it; * = translated, see notes.');

  const med = median(rpgRatios);
  const bullet = opt.markdown ? '- ' : '';
  out.push('');
  if (med === null) {
    out.push(`${bullet}median ratio vs ${RPG}: no expression has both timings`);
  } else {
    out.push(`${bullet}median ratio vs ${RPG}: ${fmtRatio(med)} over ${rpgRatios.length} expressions`
      + ` (min ${fmtRatio(Math.min(...rpgRatios))}, max ${fmtRatio(Math.max(...rpgRatios))});`
      + ` target >= ${RPG_TARGET}x: ${med >= RPG_TARGET ? 'met' : 'NOT met'}`);
  }
  const drollOk = drollReadable > 0 && drollLosses.length === 0;
  out.push(`${bullet}fray beats ${DROLL} on every expression ${DROLL} reads: ${drollOk ? 'yes' : 'NO'}`
    + ` (${drollReadable - drollLosses.length} of ${drollReadable})`
    + (drollLosses.length ? `; not faster on: ${drollLosses.join(', ')}` : ''));
  if (missingFray) out.push(`${bullet}fray gave no timing for ${missingFray} expression(s)`);

  // bench.mjs records the CPU time its process got over each timed loop.
  // Much less CPU than wall-clock time means the peers were waiting for a
  // CPU: the machine was busy, and every ratio above is inflated.
  const shares = peerRows.filter((r) => isNum(r.ns_per_roll) && isNum(r.cpu_ns_per_roll))
    .map((r) => r.cpu_ns_per_roll / r.ns_per_roll);
  const share = median(shares);
  if (share !== null) {
    const pct = Math.round(share * 100);
    out.push(share < 0.9
      ? `${bullet}WARNING: the JavaScript peers had a CPU for only ${pct}% of their timed time (median): the machine was busy, the peers' times and so the ratios are inflated; rerun on an idle machine`
      : `${bullet}CPU share of the JavaScript peers while timed: ${pct}% (median; near or above 100% means an undisturbed run)`);
  }

  if (footnotes.length) {
    out.push('');
    out.push('notes (*):');
    for (const n of footnotes) out.push(`${opt.markdown ? '- ' : '  '}${n}`);
  }
  const unsup = [...new Map(peerRows.filter((r) => r.unsupported && r.peer === RPG).map((r) => [r.expr, r])).values()];
  if (unsup.length) {
    out.push('');
    out.push(`${RPG} cannot run:`);
    for (const r of unsup) out.push(`${opt.markdown ? '- ' : '  '}${r.expr}: ${r.reason}`);
  }
  process.stdout.write(`${out.join('\n')}\n`);

  if (opt.strict && !(med !== null && med >= RPG_TARGET && drollOk)) process.exit(1);
}

main();
