import { readFileSync } from 'node:fs';
import { LogRecord } from './log-records';

/** Where one line of a log lies, in bytes from the start of the file (its newline not included). */
export interface LineSpan {
  start: number;
  end: number;
}

export interface LogReadResult {
  records: LogRecord[];
  /** Each record's line, in the same order as `records`. */
  spans: LineSpan[];
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
  return parseLogBytes(readFileSync(path), path);
}

/** `afterSeq`: records up to it were read before (a log followed piece by piece, log-tail.ts). */
export function parseLog(text: string, label = 'log', afterSeq = -1): LogReadResult {
  return parseLogBytes(Buffer.from(text, 'utf8'), label, afterSeq);
}

/**
 * As parseLog, over the bytes as they are on disk: lines are found by their newline bytes, so a
 * line's span is exact even where the file holds invalid UTF-8. `base`: where `bytes` start in the file.
 */
export function parseLogBytes(bytes: Buffer, label = 'log', afterSeq = -1, base = 0): LogReadResult {
  const records: LogRecord[] = [];
  const spans: LineSpan[] = [];
  const warnings: string[] = [];
  let skipped = 0;
  let lastSeq = afterSeq;
  let start = 0;
  for (let index = 0; start < bytes.length; index++) {
    const newline = bytes.indexOf(0x0a, start);
    if (newline < 0) {
      // Text after the final newline was never completed: a torn write.
      const torn = bytes.toString('utf8', start);
      warnings.push(`${label}: dropped a torn last line (${torn.length} characters, no newline).`);
      break;
    }
    const line = bytes.toString('utf8', start, newline);
    const span = { start: base + start, end: base + newline };
    start = newline + 1;
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      warnings.push(`${label}: line ${index + 1} is not valid JSON; skipped.`);
      skipped++;
      continue;
    }
    const parsed = LogRecord.safeParse(json);
    if (!parsed.success) {
      const type = typeof json === 'object' && json && 'type' in json ? String((json as { type: unknown }).type) : '?';
      warnings.push(`${label}: line ${index + 1} (type "${type.slice(0, 40)}") is not a known record; skipped.`);
      skipped++;
      continue;
    }
    if (parsed.data.seq <= lastSeq) {
      warnings.push(`${label}: line ${index + 1} has seq ${parsed.data.seq} after ${lastSeq}; skipped.`);
      skipped++;
      continue;
    }
    lastSeq = parsed.data.seq;
    records.push(parsed.data);
    spans.push(span);
  }
  const intactBytes = bytes.lastIndexOf(0x0a) + 1;
  return { records, spans, warnings, nextSeq: lastSeq + 1, intactBytes, skipped };
}
