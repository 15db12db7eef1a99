import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatArgLines, formatEnvLines, parseArgLines, parseEnvLines } from './mcp-server-lines';

// What one line can hold: no line break; an argument is never empty (a blank line is dropped).
const lineText = fc.string({ maxLength: 30 }).filter((s) => !/[\r\n]/.test(s));
const arg = lineText.filter((s) => s !== '');
// __proto__ and friends included: a variable named so is kept as one, not as the object's prototype.
const envName = fc.oneof(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/), fc.constantFrom('__proto__', 'constructor', 'toString'));

describe('MCP server form: argument and environment lines', () => {
  it('arguments come back exactly from their lines, spaces, quotes and = included', () => {
    fc.assert(fc.property(fc.array(arg, { maxLength: 8 }), (args) => {
      expect(parseArgLines(formatArgLines(args))).toEqual(args);
    }));
  });

  it('an environment comes back exactly from its KEY=VALUE lines, values holding = and spaces included', () => {
    fc.assert(
      fc.property(fc.dictionary(envName, lineText, { maxKeys: 8 }), (env) => {
        const parsed = parseEnvLines(formatEnvLines(env));
        expect(parsed).toEqual({ ok: true, env });
      }),
    );
  });

  const refused = parseEnvLines('not a variable');
  const sameWords = refused.ok ? '' : refused.message.replace(/line \d+/, 'line N');

  it('a line without =, or with a name that is not a variable name, is refused naming its line and never echoing it', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(envName, lineText), { maxLength: 4, selector: ([name]) => name }), lineText, fc.nat(4), (good, bad, at) => {
        fc.pre(bad.trim() !== '' && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(bad));
        const lines = good.map(([k, v]) => `${k}=${v}`);
        const index = Math.min(at, lines.length);
        lines.splice(index, 0, bad);
        const parsed = parseEnvLines(lines.join('\n'));
        expect(parsed.ok).toBe(false);
        if (!parsed.ok) {
          expect(parsed.message).toContain(`line ${index + 1}:`);
          // The same words whatever the line held: a value that may be a secret is not repeated.
          expect(parsed.message.replace(/line \d+/, 'line N')).toBe(sameWords);
        }
      }),
    );
  });

  it('blank lines and Windows line ends are no arguments or variables; a name given twice is refused', () => {
    expect(parseArgLines('-y\r\n\r\n@scope/server  \n\n')).toEqual(['-y', '@scope/server  ']);
    expect(parseEnvLines('\nA=1\r\n\nB=x=y\n')).toEqual({ ok: true, env: { A: '1', B: 'x=y' } });
    expect(parseEnvLines('A=1\nA=2')).toEqual({ ok: false, message: expect.stringMatching(/line 2.*A.*more than once/) });
    expect(parseEnvLines('')).toEqual({ ok: true, env: {} });
    expect(formatArgLines([])).toBe('');
  });
});
