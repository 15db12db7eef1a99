import { readFileSync } from 'node:fs';
import { LogRecord } from './log-records';

export interface LogReadResult {
  records: LogRecord[];
  /** Human-readable problems: a torn last line, invalid or unknown lines (all skipped). */
  warnings: string[];
  /** The seq the next append should use. */
  nextSeq: number;
  /** Byte length of the intact part: a torn tail after it is cut off before appending again. */
  intactBytes: number;
  /** Whole lines skipped as unreadable (not counting a torn last line, which a kill leaves). */
  skipped: number;
}

/**
 * Reads a chat's log. Never throws on content: a torn last line (a crash mid-write) is dropped
 * with a warning, other bad lines are skipped with a warning, out-of-order seqs are skipped.
 */
export function readLog(path: string): LogReadResult {
  const buffer = readFileSync(path);
  return parseLog(buffer.toString('utf8'), path);
}

/** `afterSeq`: records up to it were read before (a log followed piece by piece, log-tail.ts). */
export function parseLog(text: string, label = 'log', afterSeq = -1): LogReadResult {
  const records: LogRecord[] = [];
  const warnings: string[] = [];
  let skipped = 0;
  let lastSeq = afterSeq;
  let offset = 0;
  let intactBytes = 0;
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const isLast = index === lines.length - 1;
    const bytes = Buffer.byteLength(line) + (isLast ? 0 : 1);
    offset += bytes;
    if (isLast) {
      // Text after the final newline was never completed: a torn write.
      if (line.length > 0) warnings.push(`${label}: dropped a torn last line (${line.length} characters, no newline).`);
      return;
    }
    intactBytes = offset;
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      warnings.push(`${label}: line ${index + 1} is not valid JSON; skipped.`);
      skipped++;
      return;
    }
    const parsed = LogRecord.safeParse(json);
    if (!parsed.success) {
      const type = typeof json === 'object' && json && 'type' in json ? String((json as { type: unknown }).type) : '?';
      warnings.push(`${label}: line ${index + 1} (type "${type.slice(0, 40)}") is not a known record; skipped.`);
      skipped++;
      return;
    }
    if (parsed.data.seq <= lastSeq) {
      warnings.push(`${label}: line ${index + 1} has seq ${parsed.data.seq} after ${lastSeq}; skipped.`);
      skipped++;
      return;
    }
    lastSeq = parsed.data.seq;
    records.push(parsed.data);
  });
  return { records, warnings, nextSeq: lastSeq + 1, intactBytes, skipped };
}
