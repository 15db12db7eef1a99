import { describe, expect, it } from 'vitest';
import { inertJson, oneLineName, terminalText } from './terminal-text';

const ESC = '\u001b';
const BEL = '\u0007';
const ST = `${ESC}\\`;

describe('terminalText', () => {
  it.each([
    ['OSC 0 (window title), ended by BEL', `a${ESC}]0;pwned${BEL}b`, 'ab'],
    ['OSC 52 (clipboard)', `a${ESC}]52;c;cHduZWQ=${BEL}b`, 'ab'],
    ['OSC 8 hyperlink, ended by ST: the link text stays', `${ESC}]8;;http://x${ST}link${ESC}]8;;${ST}`, 'link'],
    ['DCS', `a${ESC}Pq#0;2;0;0;0${ST}b`, 'ab'],
    ['APC, PM, SOS', `a${ESC}_x${ST}b${ESC}^y${ST}c${ESC}Xz${ST}d`, 'abcd'],
    ['C1 CSI', 'a\u009b31mb', 'ab'],
    ['C1 OSC ended by C1 ST', 'a\u009d0;t\u009cb', 'ab'],
    ['CSI erase and move', `a${ESC}[2J${ESC}[1;1H${ESC}[?1049hb`, 'ab'],
    ['ESC c (reset), ESC 7, ESC ( B', `a${ESC}cb${ESC}7c${ESC}(Bd`, 'abcd'],
    ['a carriage return that would overwrite the line', 'rm -rf ~\rls', 'rm -rf ~ls'],
    ['BEL, NUL, backspace, DEL, vertical tab, form feed', `a${BEL}b\u0000c\u0008d\u007fe\u000bf\u000cg`, 'abcdefg'],
    ['bidi overrides and isolates', 'a\u202eb\u202cc\u2066d\u2069e', 'abcde'],
    ['an OSC that never ends takes the rest with it', `a${ESC}]0;pwned`, 'a'],
    ['a lone ESC at the end', `a${ESC}`, 'a'],
  ])('%s', (_what, input, shown) => {
    expect(terminalText(input)).toBe(shown);
  });

  it('keeps newlines, tabs and every printable character, accents and emoji included', () => {
    const text = 'line 1\n\tindented — café ✓ 🎉 «ok» [31m (no ESC: just brackets)';
    expect(terminalText(text)).toBe(text);
  });
});

describe('inertJson', () => {
  it('escapes C1 and bidi controls that JSON.stringify leaves raw; the decoded value is unchanged', () => {
    const value = { text: `a\u009b31m\u202eb${ESC}]0;t${BEL}\u2028` };
    const json = inertJson(value);
    // eslint-disable-next-line no-control-regex
    expect(json).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('oneLineName', () => {
  it('one line, no controls, at most max characters', () => {
    expect(oneLineName(`  claude\n${ESC}]0;x${BEL}code\u202e  `, 80)).toBe('claude code');
    const long = oneLineName('x'.repeat(1_000_000), 80);
    expect(Array.from(long)).toHaveLength(80);
    expect(long.endsWith('…')).toBe(true);
    expect(oneLineName('🎉'.repeat(100), 10)).toBe(`${'🎉'.repeat(9)}…`);
  });

  it('cleans as a file name is cleaned (src/shared/attachment-names.ts): direction marks gone, a lone surrogate made U+FFFD, line separators a space', () => {
    expect(oneLineName('claude\u200f\u061c\u200ecode', 80)).toBe('claudecode');
    expect(oneLineName('half \ud83c of an emoji', 80)).toBe('half \ufffd of an emoji');
    expect(oneLineName('two\u2028lines\u2029here', 80)).toBe('two lines here');
  });
});
