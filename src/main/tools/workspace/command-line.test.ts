import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandWords, matchesCommandLine, normaliseCommandLine } from './command-line';

/** Plain words (no quotes, spaces or shell operators) and quoted ones with inner spacing. */
const plainWord = fc.stringMatching(/^[A-Za-z0-9_./=:@%+,-]{1,12}$/);
const quotedWord = fc.tuple(fc.constantFrom("'", '"'), fc.stringMatching(/^[a-z]{1,4}( {1,3}[a-z]{1,4}){0,2}$/)).map(([q, text]) => `${q}${text}${q}`);
const word = fc.oneof({ weight: 4, arbitrary: plainWord }, { weight: 1, arbitrary: quotedWord });
const words = fc.array(word, { minLength: 1, maxLength: 6 });
const gap = fc.stringMatching(/^[ \t]{1,4}$/);
const spaced = (ws: string[], gaps: string[], lead = '', trail = '') => lead + ws.map((w, i) => (i === 0 ? w : `${gaps[i % gaps.length] ?? ' '}${w}`)).join('') + trail;

describe('exact command-line matching (allow-list and approval rules)', () => {
  it('a rule covers its own command line however the whitespace between words is written', () => {
    fc.assert(
      fc.property(words, fc.array(gap, { minLength: 1, maxLength: 6 }), gap, gap, (ws, gaps, lead, trail) => {
        expect(matchesCommandLine(spaced(ws, gaps, lead, trail), ws.join(' '))).toBe(true);
      }),
    );
  });

  it('never a prefix: any extra argument, before or after, needs approval', () => {
    fc.assert(
      fc.property(words, word, fc.boolean(), (ws, extra, atEnd) => {
        const rule = ws.join(' ');
        const command = atEnd ? `${rule} ${extra}` : `${ws[0]} ${extra} ${ws.slice(1).join(' ')}`;
        expect(matchesCommandLine(command, rule)).toBe(false);
      }),
    );
  });

  it('option injection into an allowed command is refused', () => {
    const list = ['git diff', 'npm test', 'ls'];
    for (const command of ['git diff --no-index --output=/outside/file /dev/null /etc/hostname', 'git diff -o x', 'npm test -- --exec=sh', 'ls -la', 'ls --color=always']) {
      expect(list.some((rule) => matchesCommandLine(command, rule)), command).toBe(false);
    }
    expect(list.some((rule) => matchesCommandLine('git   diff', rule))).toBe(true);
  });

  it('whitespace inside quotes is part of the word, not normalised', () => {
    expect(matchesCommandLine("echo 'a  b'", "echo 'a  b'")).toBe(true);
    expect(matchesCommandLine("echo 'a  b'", "echo 'a b'")).toBe(false);
    expect(matchesCommandLine('echo "a b"', "echo 'a b'")).toBe(false);
    expect(matchesCommandLine('echo a\\ b', 'echo a b')).toBe(false);
    expect(commandWords(`printf "%s\\"  x" 'y  z'`)).toEqual([`printf`, `"%s\\"  x"`, `'y  z'`]);
  });

  it('an open quote or a shell operator never matches, even itself', () => {
    fc.assert(
      fc.property(words, fc.constantFrom(';', '&&', '|', '>', '<', '$(x)', '`x`', '\n', '&'), (ws, op) => {
        const command = `${ws.join(' ')} ${op} rm -rf x`;
        expect(matchesCommandLine(command, command)).toBe(false);
      }),
    );
    expect(matchesCommandLine("echo 'open", "echo 'open")).toBe(false);
    expect(matchesCommandLine('', '')).toBe(false);
    expect(matchesCommandLine('   ', '   ')).toBe(false);
  });

  it('normalising is idempotent and keeps the words', () => {
    fc.assert(
      fc.property(words, fc.array(gap, { minLength: 1, maxLength: 6 }), (ws, gaps) => {
        const once = normaliseCommandLine(spaced(ws, gaps));
        expect(once).toBe(ws.join(' '));
        expect(normaliseCommandLine(once!)).toBe(once);
        expect(commandWords(once!)).toEqual(ws);
      }),
    );
  });
});
