#!/usr/bin/env node
// bench.mjs - time JavaScript dice engines on fray's dice corpus.
//
//   node bench.mjs [--iterations N] [--max-seconds S] [--peer NAME|all]
//                  [--fray PATH] [--explain] < expressions.txt
//
// For every expression (one a line; blank lines and lines starting with `#`
// are skipped) and every peer, it translates the expression to the peer's
// notation (translate.mjs), checks the peer reads it, warms up, then times
// "parse and roll" -- the same work as `fray bench --mode full` -- N times,
// stopping early once S seconds have gone on that expression. It prints one
// JSON line per expression and peer:
//
//   {"peer":"droll","expr":"1d20+5","iterations":N,"ns_per_roll":X,
//    "translated":"1d20+5","notes":[]}
//   {"peer":"droll","expr":"4d6kh3","unsupported":true,"reason":"..."}
//
// then one total line per peer containing "total": true.
//
// --fray PATH also times fray, interleaved: for each expression it runs
// `PATH bench --mode full` on that one expression, right before the peers
// time it, and passes fray's line through with "peer": "fray". Pairing each
// expression's timings in time keeps the ratios honest on a machine whose
// load drifts.
//
// --explain prints, instead of timings, each translation with its notes.

import { DiceRoll } from '@dice-roller/rpg-dice-roller';
import droll from 'droll';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hrtime } from 'node:process';
import { translateFor } from './translate.mjs';

const PEERS = {
  // new DiceRoll() parses and rolls; .total forces the sum.
  'rpg-dice-roller': {
    compile: (text) => () => new DiceRoll(text).total,
    check: (text) => { void new DiceRoll(text).total; },
  },
  // droll.roll() parses (a regex) and rolls.
  droll: {
    compile: (text) => () => droll.roll(text).total,
    check: (text) => {
      if (!droll.validate(text)) throw new Error('droll.validate rejected it');
    },
  },
};

function usage(msg) {
  if (msg) process.stderr.write(`bench.mjs: ${msg}\n`);
  process.stderr.write('usage: node bench.mjs [--iterations N] [--max-seconds S] '
    + `[--peer ${Object.keys(PEERS).join('|')}|all] [--fray PATH] [--explain] < expressions.txt\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const opt = { iterations: 100000, maxSeconds: 2, peers: Object.keys(PEERS), explain: false, fray: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--iterations') {
      opt.iterations = Number(val());
      if (!Number.isInteger(opt.iterations) || opt.iterations < 1) usage('--iterations must be a positive integer');
    } else if (a === '--max-seconds') {
      opt.maxSeconds = Number(val());
      if (!(opt.maxSeconds > 0)) usage('--max-seconds must be a positive number');
    } else if (a === '--peer') {
      const p = val();
      if (p === 'all') opt.peers = Object.keys(PEERS);
      else if (PEERS[p]) opt.peers = [p];
      else usage(`unknown peer ${p}`);
    } else if (a === '--fray') {
      opt.fray = val();
    } else if (a === '--explain') {
      opt.explain = true;
    } else if (a === '-h' || a === '--help') {
      usage();
    } else {
      usage(`unknown argument ${a}`);
    }
  }
  return opt;
}

function readCorpus() {
  return readFileSync(0, 'utf8')
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
}

// A value every roll feeds, printed at the end, so no engine can optimise
// the rolls away.
let sink = 0;

// Time fn() up to `iterations` times or until maxNs nanoseconds have passed.
// The clock is read once per batch, and batches grow until one takes about a
// millisecond, so reading the clock costs nothing measurable even for a
// 100 ns roll, while a slow roll still stops close to the time limit.
function measure(fn, iterations, maxNs) {
  // Warm-up: a tenth of the iterations, at most 5000 and at most a tenth of
  // the time budget, so the JIT has compiled the hot path before we time it.
  const warmN = Math.max(1, Math.min(5000, Math.floor(iterations / 10)));
  const warmEnd = hrtime.bigint() + maxNs / 10n;
  for (let i = 0; i < warmN; i++) {
    sink += fn();
    if ((i & 63) === 63 && hrtime.bigint() > warmEnd) break;
  }

  let done = 0;
  let batch = 1;
  const cpu0 = process.cpuUsage();
  const start = hrtime.bigint();
  const deadline = start + maxNs;
  let now = start;
  while (done < iterations) {
    const n = Math.min(batch, iterations - done);
    const t0 = now;
    for (let i = 0; i < n; i++) sink += fn();
    done += n;
    now = hrtime.bigint();
    if (now >= deadline) break;
    if (now - t0 < 1000000n) batch *= 2;
  }
  const cpu = process.cpuUsage(cpu0);
  return { iterations: done, ns: Number(now - start), cpuNs: (cpu.user + cpu.system) * 1000 };
}

// One expression through `fray bench --mode full`; returns fray's result
// line with "peer": "fray" added, or an error line.
function timeFray(opt, expr) {
  const r = spawnSync(opt.fray, ['bench', '--mode', 'full', '--iterations', String(opt.iterations),
    '--max-seconds', String(opt.maxSeconds)], { input: `${expr}\n`, encoding: 'utf8' });
  if (r.error) return { peer: 'fray', expr, error: `cannot run ${opt.fray}: ${r.error.message}` };
  for (const line of r.stdout.split('\n')) {
    let obj;
    try {
      obj = JSON.parse(line);
    } catch {
      continue;
    }
    if (obj && typeof obj === 'object' && obj.total !== true && typeof obj.expr === 'string') {
      return { peer: 'fray', ...obj, expr };
    }
  }
  return { peer: 'fray', expr, error: `fray bench printed no result (status ${r.status}): ${r.stderr.trim().slice(0, 200)}` };
}

function prepare(peer, expr) {
  const tr = translateFor(peer, expr);
  if (!tr.ok) return tr;
  try {
    PEERS[peer].check(tr.text);
  } catch (err) {
    return { ok: false, reason: `peer rejects \`${tr.text}\`: ${String(err.message).split('\n')[0].slice(0, 160)}` };
  }
  return tr;
}

function main() {
  // `node bench.mjs | head` should stop quietly.
  process.stdout.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  const opt = parseArgs(process.argv.slice(2));
  const corpus = readCorpus();
  const maxNs = BigInt(Math.round(opt.maxSeconds * 1e9));
  const totals = {};
  for (const p of opt.peers) totals[p] = { expressions: 0, unsupported: 0, iterations: 0, ns: 0 };

  const out = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);

  // Read every expression once per peer up front, then warm the engines on
  // the whole corpus, so code shared by all expressions is compiled before
  // the first one is timed (fray, being C, needs no such thing).
  const prepared = corpus.map((expr) => {
    const byPeer = {};
    for (const peer of opt.peers) byPeer[peer] = prepare(peer, expr);
    return { expr, byPeer };
  });
  // Three passes of up to 500 rolls per expression, through measure()
  // itself so that its own loops are optimised too.
  if (!opt.explain) {
    const perExpr = maxNs / 20n;
    for (let pass = 0; pass < 3; pass++) {
      for (const peer of opt.peers) {
        for (const { byPeer } of prepared) {
          const tr = byPeer[peer];
          if (tr.ok) measure(PEERS[peer].compile(tr.text), 500, perExpr);
        }
      }
    }
  }

  for (const { expr, byPeer } of prepared) {
    if (opt.fray && !opt.explain) {
      out(timeFray(opt, expr));
    }
    for (const peer of opt.peers) {
      const tr = byPeer[peer];
      if (opt.explain) {
        const line = { peer, expr, ...tr };
        delete line.ok;
        if (!tr.ok) line.unsupported = true;
        out(line);
        continue;
      }
      if (!tr.ok) {
        totals[peer].unsupported++;
        out({ peer, expr, unsupported: true, reason: tr.reason });
        continue;
      }
      const m = measure(PEERS[peer].compile(tr.text), opt.iterations, maxNs);
      const t = totals[peer];
      t.expressions++;
      t.iterations += m.iterations;
      t.ns += m.ns;
      out({
        peer,
        expr,
        iterations: m.iterations,
        ns_per_roll: Math.round((m.ns / m.iterations) * 10) / 10,
        // CPU time of the whole process (all its threads, garbage
        // collection included) over the same loop: well below ns_per_roll
        // means the process was waiting for a CPU, i.e. a busy machine.
        cpu_ns_per_roll: Math.round((m.cpuNs / m.iterations) * 10) / 10,
        translated: tr.text,
        notes: tr.notes,
      });
    }
  }
  if (opt.explain) return;
  for (const peer of opt.peers) {
    const t = totals[peer];
    out({
      peer,
      total: true,
      expressions: t.expressions,
      unsupported: t.unsupported,
      iterations: t.iterations,
      ns: t.ns,
      ns_per_roll: t.iterations ? Math.round((t.ns / t.iterations) * 10) / 10 : null,
      checksum: sink,
    });
  }
}

main();
