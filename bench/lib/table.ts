import type { Metric } from './metric';

/** The results as a fixed-width table for the terminal (methods on their own indented line). */
export function formatTable(metrics: readonly Metric[]): string {
  const rows = metrics.map((m) => [
    `${m.bench}: ${m.metric}`,
    `${m.value} ${m.unit}`.trim(),
    m.target ?? '—',
    m.met === null ? '' : m.met ? 'yes' : 'NO',
  ]);
  const head = ['metric', 'value', 'target', 'met?'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  const out = [line(head), widths.map((w) => '-'.repeat(w)).join('  ')];
  metrics.forEach((m, i) => {
    out.push(line(rows[i]!));
    out.push(`    method: ${m.method}`);
  });
  return out.join('\n');
}

/** The same results as a Markdown table, for bench/README.md. */
export function formatMarkdown(metrics: readonly Metric[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const out = ['| metric | value | target | met? | method |', '| --- | --- | --- | --- | --- |'];
  for (const m of metrics) {
    const met = m.met === null ? '' : m.met ? 'yes' : '**no**';
    out.push(`| ${esc(`${m.bench}: ${m.metric}`)} | ${esc(`${m.value} ${m.unit}`.trim())} | ${esc(m.target ?? '—')} | ${met} | ${esc(m.method)} |`);
  }
  return out.join('\n');
}
