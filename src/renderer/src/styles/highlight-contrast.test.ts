import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Code colours are painted with the CSS Custom Highlight API (markdown/code-highlights.ts), which
 * axe cannot see (e2e/a11y.spec.ts checked them while they were spans): their contrast on the code
 * background is checked here instead, in both schemes, at WCAG AA (4.5:1).
 */
const css = (name: string) => readFileSync(join(__dirname, name), 'utf8');

/** The custom properties of the first rule whose selector is exactly `selector`. */
function variables(source: string, selector: string): Record<string, string> {
  const start = source.indexOf(`${selector} {`);
  const body = source.slice(start, source.indexOf('}', start));
  return Object.fromEntries([...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

describe('code highlight colours', () => {
  for (const [scheme, selector] of [
    ['light', ':root'],
    ['dark', ":root[data-theme='dark']"],
  ] as const) {
    it(`keep 4.5:1 on the code background in ${scheme}`, () => {
      const base = variables(css('base.css'), selector);
      const hl = variables(css('highlight.css'), selector);
      const bg = base['--code-bg']!;
      const backgroundOf = (name: string) => (hl[name] && hl[name] !== 'transparent' ? hl[name]! : bg);
      const pairs: Array<[string, string, string]> = [
        ...['--hl-comment', '--hl-keyword', '--hl-string', '--hl-number', '--hl-title', '--hl-builtin'].map((name): [string, string, string] => [name, hl[name]!, bg]),
        ['--hl-del-fg on --hl-del-bg', hl['--hl-del-fg']!, backgroundOf('--hl-del-bg')],
        ['--hl-string on --hl-add-bg', hl['--hl-string']!, backgroundOf('--hl-add-bg')],
      ];
      expect(pairs.every(([, fg]) => /^#[0-9a-f]{6}$/i.test(fg))).toBe(true);
      const low = pairs.filter(([, fg, on]) => contrast(fg, on) < 4.5).map(([name, fg, on]) => `${name} ${fg} on ${on}: ${contrast(fg, on).toFixed(2)}`);
      expect(low).toEqual([]);
    });
  }
});
