// translate.test.mjs - the translation table, case by case.
//   cd bench/dice-peers && node --test
// null means "unsupported for that peer".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translateFor } from './translate.mjs';

const CASES = [
  // fray                  rpg-dice-roller          droll
  ['1d20+5',               '1d20+5',                '1d20+5'],
  ['d20+7',                'd20+7',                 'd20+7'],
  ['1d20 - 1',             '1d20 - 1',              '1d20-1'],
  ['1d20+5 adv',           '2d20kh1+5',             null],
  ['1d20-1 dis',           '2d20kl1-1',             null],
  ['d20 adv',              '2d20kh1',               null],
  ['1d20+1d20 adv',        null,                    null],
  ['2d20 adv',             null,                    null],
  ['2d6+3 # longsword',    '2d6+3',                 '2d6+3'],
  ['6x 4d6kh3',            null,                    null],
  ['4d6kh3',               '4d6kh3',                null],
  ['4d6 kh3',              '4d6kh3',                null],
  ['4D6KH3',               '4d6kh3',                null],
  ['2d20kl',               '2d20kl1',               null],
  ['4d6k',                 '4d6kh1',                null],
  ['4d6k3',                '4d6k3',                 null],
  ['4d6dl',                '4d6dl1',                null],
  ['d%',                   'd%',                    'd100'],
  ['4dF',                  '4dF',                   null],
  ['4df+1',                '4dF+1',                 null],
  ['3D+1',                 '3d6+1',                 '3d6+1'],
  ['3D6+1',                '3d6+1',                 '3D6+1'],
  ['1d6!',                 '1d6!',                  null],
  ['1d6!5',                '1d6!=5',                null],
  ['1d10!>=9',             '1d10!>=9',              null],
  ['1d6 !>=5',             '1d6!>=5',               null],
  ['10d10>=8',             '10d10>=8',              null],
  ['10d10>=8f1',           '10d10>=8f=1',           null],
  ['6d10>=7f<=2',          '6d10>=7f<=2',           null],
  ['10d10f1',              null,                    null],
  ['1d6r1',                '1d6r=1',                null],
  ['2d6ro1',               '2d6ro=1',               null],
  ['4d6r<3',               '4d6r<3',                null],
  ['-1d6+10',              '0-1d6+10',              null],
  ['(-1d6)*2',             '(0-1d6)*2',             null],
  ['3*-1d6',               null,                    null],
  ['1d6 - -2',             '1d6 - -2',              null],
  ['1000d6',               '(500d6+500d6)',         '1000d6'],
  ['1000d6*2',             '(500d6+500d6)*2',       null],
  ['1000d6kh3',            null,                    null],
  ['1d6/2',                '1d6/2',                 null],
  ['(1d6+2)*3',            '(1d6+2)*3',             null],
];

for (const [fray, rpg, droll] of CASES) {
  for (const [peer, want] of [['rpg-dice-roller', rpg], ['droll', droll]]) {
    test(`${peer}: ${fray}`, async () => {
      const got = translateFor(peer, fray);
      if (want === null) {
        // Either the table refuses it, or the peer will (checked by
        // bench.mjs before timing): try the peer here too.
        if (!got.ok) return;
        const ok = await peerReads(peer, got.text);
        assert.equal(ok, false, `expected unsupported, got \`${got.text}\` which the peer reads`);
      } else {
        assert.ok(got.ok, got.reason);
        assert.equal(got.text, want);
        assert.equal(await peerReads(peer, got.text), true, `peer rejects \`${got.text}\``);
      }
    });
  }
}

test('every rule that changes the text leaves a note', () => {
  for (const [fray] of CASES) {
    for (const peer of ['rpg-dice-roller', 'droll']) {
      const got = translateFor(peer, fray);
      if (got.ok && got.text !== fray.trim()) assert.ok(got.notes.length > 0, `${peer}: ${fray}`);
    }
  }
});

async function peerReads(peer, text) {
  try {
    if (peer === 'droll') {
      const { default: droll } = await import('droll');
      return droll.validate(text);
    }
    const { DiceRoll } = await import('@dice-roller/rpg-dice-roller');
    void new DiceRoll(text).total;
    return true;
  } catch {
    return false;
  }
}
