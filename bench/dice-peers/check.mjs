#!/usr/bin/env node
// check.mjs - do the peers roll the same thing as fray? A statistical check
// of every translation, so the speed table never compares different work.
//
//   node check.mjs --fray PATH [--rolls N] [--peer NAME|all] < expressions.txt
//
// For each expression it rolls fray (`fray roll --json --seed K EXPR...`) and
// each peer (its translation from translate.mjs) N times, and compares the
// mean and the standard deviation of the totals. It prints one line per
// expression and peer: "same", "DIFFERS" (mean more than 5 standard errors
// apart, or standard deviations more than 15% apart), or why it was
// skipped. Exits 1 if anything differs.

import { DiceRoll } from '@dice-roller/rpg-dice-roller';
import droll from 'droll';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { translateFor } from './translate.mjs';

const PEERS = {
  'rpg-dice-roller': (text) => new DiceRoll(text).total,
  droll: (text) => droll.roll(text).total,
};

function usage(msg) {
  if (msg) process.stderr.write(`check.mjs: ${msg}\n`);
  process.stderr.write('usage: node check.mjs --fray PATH [--rolls N] [--peer NAME|all] < expressions.txt\n');
  process.exit(2);
}

const opt = { rolls: 2000, peers: Object.keys(PEERS) };
{
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = argv[i + 1];
    if (v === undefined && a !== '-h' && a !== '--help') usage(`${a} needs a value`);
    if (a === '--fray') opt.fray = argv[++i];
    else if (a === '--rolls') {
      opt.rolls = Number(argv[++i]);
      if (!Number.isInteger(opt.rolls) || opt.rolls < 10) usage('--rolls must be an integer of at least 10');
    } else if (a === '--peer') {
      const p = argv[++i];
      if (p === 'all') opt.peers = Object.keys(PEERS);
      else if (PEERS[p]) opt.peers = [p];
      else usage(`unknown peer ${p}`);
    } else usage(a === '-h' || a === '--help' ? undefined : `unknown argument ${a}`);
  }
  if (!opt.fray) usage('--fray is required');
}

// Totals of `count` rolls of expr by fray, from fresh seeds per call. A call
// carries at most `chunk` copies of the expression; huge pools print a lot
// of JSON, so the chunk shrinks for them.
function frayTotals(expr, count) {
  const totals = [];
  let chunk = 50;
  let seed = 1;
  while (totals.length < count) {
    const n = Math.min(chunk, count - totals.length);
    const args = ['roll', '--json', '--seed', String(seed++)];
    for (let i = 0; i < n; i++) args.push(expr);
    const r = spawnSync(opt.fray, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
    if (r.error) throw r.error;
    const lines = r.stdout.split('\n').filter((l) => l.trim() !== '');
    for (const line of lines) {
      const obj = JSON.parse(line);
      if (obj.error) return { error: obj.error.message ?? JSON.stringify(obj.error) };
      if (!Array.isArray(obj.rolls) || obj.rolls.length !== 1) return { error: 'not a single roll (repeat prefix?)' };
      totals.push(obj.rolls[0].total);
    }
    if (lines.length !== n) return { error: `fray roll printed ${lines.length} results for ${n} (status ${r.status})` };
    const bytesPerRoll = r.stdout.length / n;
    chunk = Math.max(1, Math.min(1000, Math.floor(8e6 / bytesPerRoll)));
  }
  return { totals };
}

function stats(xs) {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const v = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  return { n, mean, sd: Math.sqrt(v) };
}

const fmt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(2));

const corpus = readFileSync(0, 'utf8').split('\n').map((l) => l.replace(/\r$/, ''))
  .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));

let differs = 0;
for (const expr of corpus) {
  const fr = frayTotals(expr, opt.rolls);
  for (const peer of opt.peers) {
    const tr = translateFor(peer, expr);
    const head = `${peer.padEnd(16)} ${expr.padEnd(22)}`;
    if (!tr.ok) {
      console.log(`${head} skipped: unsupported (${tr.reason})`);
      continue;
    }
    if (fr.error) {
      console.log(`${head} skipped: fray: ${fr.error}`);
      continue;
    }
    let pt;
    try {
      pt = Array.from({ length: fr.totals.length }, () => PEERS[peer](tr.text));
    } catch (err) {
      console.log(`${head} skipped: peer rejects \`${tr.text}\`: ${String(err.message).split('\n')[0]}`);
      continue;
    }
    const a = stats(fr.totals);
    const b = stats(pt);
    const se = Math.sqrt((a.sd ** 2 + b.sd ** 2) / a.n);
    const z = se === 0 ? (a.mean === b.mean ? 0 : Infinity) : Math.abs(a.mean - b.mean) / se;
    const sdRatio = a.sd === 0 && b.sd === 0 ? 1 : b.sd / a.sd;
    const same = z <= 5 && sdRatio >= 0.85 && sdRatio <= 1.15;
    if (!same) differs++;
    console.log(`${head} ${same ? 'same   ' : 'DIFFERS'} n=${a.n} mean ${fmt(a.mean)} vs ${fmt(b.mean)} (z=${z.toFixed(1)}),`
      + ` sd ${fmt(a.sd)} vs ${fmt(b.sd)}; ran \`${tr.text}\``);
  }
}
if (differs) {
  console.log(`${differs} translation(s) differ`);
  process.exit(1);
}
