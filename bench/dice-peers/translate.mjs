// translate.mjs - turn a fray dice expression into what each JavaScript peer
// reads, or say plainly why it cannot.
//
// Every difference in syntax is handled by one named rule below; each rule
// that fires leaves a note, and the notes travel with the timing so a reader
// of the results can see exactly what the peer was asked to do. A fray
// feature with no equivalent in the peer makes the expression unsupported:
// we never time a peer on different work and call it the same expression.
//
// translateFor(peer, expr) returns
//   { ok: true,  text: "<peer notation>", notes: ["...", ...] }
//   { ok: false, reason: "..." }
// The caller still asks the peer to read `text` once before timing it; if the
// peer rejects it, the expression is reported unsupported with the peer's
// own error message.

// rpg-dice-roller refuses more than 999 dice in one term.
const RPG_MAX_QTY = 999;

function unsupported(reason) {
  return { ok: false, reason };
}

// Rules shared by both peers, applied first. Each returns the new text (or
// an `unsupported` object) and pushes a note when it changed anything.
const COMMON_RULES = [
  {
    id: 'repeat',
    apply(s) {
      if (/^\s*\d+\s*x(?![a-z0-9])/i.test(s)) {
        return unsupported('repeat prefix `Nx`: the peer has no repeat; a roll group would add the rolls together, which is different work');
      }
      return s;
    },
  },
  {
    id: 'label',
    apply(s, notes) {
      const i = s.indexOf('#');
      if (i < 0) return s;
      notes.push('label after `#` dropped (the peer has no labels on arbitrary terms; fray only copies the text)');
      return s.slice(0, i).trimEnd();
    },
  },
  {
    id: 'six-sided-D',
    // fray: a capital D with no sides means six-sided dice (`3D+1`).
    apply(s, notes) {
      const t = s.replace(/(\d*)D(?![0-9%Ff])/g, '$1d6');
      if (t !== s) notes.push('`ND` (capital D, no sides) written as `Nd6`');
      return t;
    },
  },
];

// rpg-dice-roller: lower-case only (except `dF`), needs counts on keep/drop,
// needs an operator on rerolls and failures, has no unary minus before dice,
// no `adv`/`dis`, and caps a term at 999 dice.
const RPG_RULES = [
  ...COMMON_RULES,
  {
    id: 'case',
    apply(s, notes) {
      const t = s.toLowerCase().replace(/df/g, 'dF');
      if (t !== s) notes.push('lower-cased (the peer is case-sensitive)');
      return t;
    },
  },
  {
    id: 'adv',
    // `1d20+5 adv` -> `2d20kh1+5`; `dis` -> `2d20kl1`.
    apply(s, notes) {
      const words = s.match(/\b(adv|dis)\b/g);
      if (!words) return s;
      if (words.length > 1) return unsupported('more than one `adv`/`dis`');
      const d20 = s.match(/(?<![0-9])1?d20(?![0-9])/g);
      if (!d20 || d20.length !== 1) return unsupported('`adv`/`dis` needs exactly one single d20 term to rewrite');
      if (/(?<![0-9])1?d20(?![0-9])\s*[a-z!<>=]/.test(s.replace(/\b(adv|dis)\b/, ''))) {
        return unsupported('`adv`/`dis` on a d20 that already has modifiers');
      }
      const keep = words[0] === 'adv' ? 'kh1' : 'kl1';
      const t = s.replace(/\s*\b(adv|dis)\b\s*/, '').replace(/(?<![0-9])1?d20(?![0-9])/, `2d20${keep}`);
      notes.push(`\`${words[0]}\` written as \`2d20${keep}\``);
      return t;
    },
  },
  {
    id: 'inner-spaces',
    // fray allows spaces inside a dice term (`4d6 kh3`, `1d6 !>=5`); the
    // peer only allows them around arithmetic. Spaces next to + - * / ( )
    // are kept, the others removed.
    apply(s, notes) {
      const t = s.replace(/(?<=[^\s+\-*/()])\s+(?=[^\s+\-*/()])/g, '');
      if (t !== s) notes.push('spaces inside a dice term removed (the peer reads none there)');
      return t;
    },
  },
  {
    id: 'keep-drop-count',
    // fray: `kh` = `kh1` and a bare `k` is `kh`; the peer wants the
    // count (its `k3` is keep-highest too, like fray's).
    apply(s, notes) {
      const t = s.replace(/k(?![hl0-9])/g, 'kh').replace(/([kd][hl])(?![0-9])/g, '$11');
      if (t !== s) notes.push('keep/drop count written out (`kh` -> `kh1`)');
      return t;
    },
  },
  {
    id: 'explode-operator',
    // fray: `!5` explodes on 5; the peer wants `!=5` (which it reads as
    // "explode on =5", not "on anything but 5").
    apply(s, notes) {
      const t = s.replace(/!(\d)/g, '!=$1');
      if (t !== s) notes.push('explode `!N` written as `!=N`');
      return t;
    },
  },
  {
    id: 'reroll-operator',
    // fray: `r1`, `ro1` reroll on equality; the peer wants `r=1`, `ro=1`.
    apply(s, notes) {
      const t = s.replace(/r(o?)(\d)/g, 'r$1=$2');
      if (t !== s) notes.push('reroll `rN`/`roN` written as `r=N`/`ro=N`');
      return t;
    },
  },
  {
    id: 'failure-operator',
    // fray: `f1` counts failures equal to 1; the peer wants `f=1`.
    apply(s, notes) {
      const t = s.replace(/(?<!d)f(\d)/g, 'f=$1');
      // (The peer itself rejects `f` without a success target first.)
      if (t !== s) notes.push('failure `fN` written as `f=N`');
      return t;
    },
  },
  {
    id: 'unary-minus',
    // The peer reads `-2` but not `-1d6`; at the start or after `(`,
    // `-X` is the same as `0-X`. After another operator it is not
    // (`3*-1d6` is not `3*0-1d6`), so that is unsupported.
    apply(s, notes) {
      let t = s.replace(/(^|\()(\s*)-(?=\s*[0-9]*d)/g, '$1$20-');
      if (/[+\-*/]\s*-\s*[0-9]*d/.test(t)) {
        return unsupported('unary minus on dice after another operator');
      }
      if (t !== s) notes.push('leading unary minus on dice written as `0-`');
      return t;
    },
  },
  {
    id: 'qty-cap',
    // The peer caps a term at 999 dice; a plain `NdX` term is split into a
    // parenthesised sum of equal parts (same dice, same distribution). A
    // term with modifiers cannot be split without changing its meaning.
    apply(s, notes) {
      let bad = null;
      const t = s.replace(/(?<![0-9])(\d+)d(\d+|%|F)/g, (m, n, x, off) => {
        const qty = Number(n);
        if (qty <= RPG_MAX_QTY) return m;
        const next = s.slice(off + m.length).trimStart()[0];
        if (next !== undefined && !'+-*/)'.includes(next)) {
          bad = `${m} with modifiers: the peer caps a term at ${RPG_MAX_QTY} dice`;
          return m;
        }
        const parts = Math.ceil(qty / RPG_MAX_QTY);
        const out = [];
        for (let i = 0; i < parts; i++) {
          const q = Math.floor(qty / parts) + (i < qty % parts ? 1 : 0);
          out.push(`${q}d${x}`);
        }
        return `(${out.join('+')})`;
      });
      if (bad) return unsupported(bad);
      if (t !== s) notes.push(`more than ${RPG_MAX_QTY} dice split into a sum of terms (the peer caps a term at ${RPG_MAX_QTY})`);
      return t;
    },
  },
  {
    id: 'division',
    // Same work, different rounding: say so rather than hide it.
    apply(s, notes) {
      if (s.includes('/')) notes.push('division: the peer keeps the fraction, fray truncates toward zero');
      return s;
    },
  },
  {
    id: 'explosion-cap',
    apply(s, notes) {
      if (s.includes('!')) notes.push('explosions: the peer allows 1000 per die, fray 100 (only matters in the far tail)');
      return s;
    },
  },
];

// droll reads exactly /^([1-9]\d*)?d([1-9]\d*)([+-]\d+)?$/i: no spaces, one
// dice term, at most one constant. Everything else is unsupported.
const DROLL_RULES = [
  ...COMMON_RULES,
  {
    id: 'percent',
    apply(s, notes) {
      const t = s.replace(/d%/gi, 'd100');
      if (t !== s) notes.push('`d%` written as `d100`');
      return t;
    },
  },
  {
    id: 'spaces',
    apply(s, notes) {
      const t = s.replace(/\s+/g, '');
      if (t !== s) notes.push('spaces removed (the peer reads none)');
      return t;
    },
  },
  {
    id: 'shape',
    apply(s) {
      if (!/^([1-9]\d*)?d([1-9]\d*)([+-]\d+)?$/i.test(s)) {
        return unsupported('droll reads only `NdX`, `NdX+M`, `NdX-M`');
      }
      return s;
    },
  },
];

export const PEER_RULES = {
  'rpg-dice-roller': RPG_RULES,
  droll: DROLL_RULES,
};

export function translateFor(peer, expr) {
  const rules = PEER_RULES[peer];
  if (!rules) throw new Error(`unknown peer ${peer}`);
  const notes = [];
  let s = expr.trim();
  for (const rule of rules) {
    const r = rule.apply(s, notes);
    if (typeof r !== 'string') return r;
    s = r;
  }
  return { ok: true, text: s, notes };
}
