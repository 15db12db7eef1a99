import { readRegularFileSync } from '../common/regular-file';
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
 * with a warning, other bad lines are skipped with a warning, and so is a record out of order
 * with the records around it (inOrder).
 */
export function readLog(path: string): LogReadResult {
  return parseLogBytes(readRegularFileSync(path), path);
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
  const candidates: Array<{ record: LogRecord; span: LineSpan; line: number }> = [];
  const warnings: string[] = [];
  let skipped = 0;
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
    if (parsed.data.seq <= afterSeq) {
      warnings.push(`${label}: line ${index + 1} has seq ${parsed.data.seq} after ${afterSeq}; skipped.`);
      skipped++;
      continue;
    }
    candidates.push({ record: parsed.data, span, line: index + 1 });
  }
  const keep = inOrder(candidates.map((c) => c.record.seq));
  const records: LogRecord[] = [];
  const spans: LineSpan[] = [];
  let lastSeq = afterSeq;
  for (const [i, candidate] of candidates.entries()) {
    const { seq } = candidate.record;
    if (!keep[i]) {
      warnings.push(`${label}: line ${candidate.line} has seq ${seq}${seq <= lastSeq ? ` after ${lastSeq}` : ', ahead of the records after it'}; skipped.`);
      skipped++;
      continue;
    }
    lastSeq = seq;
    records.push(candidate.record);
    spans.push(candidate.span);
  }
  const intactBytes = bytes.lastIndexOf(0x0a) + 1;
  return { records, spans, warnings, nextSeq: lastSeq + 1, intactBytes, skipped };
}

/**
 * Which seqs to keep: the longest run of records whose seqs rise in file order (the earliest
 * such run when there are several). A writer numbers its lines one after another, so a line
 * out of order was put there by hand or copied: it is the one skipped, whether its seq is from
 * the past or the future — a single future seq must not hide every record after it.
 * O(n log n): for each record, the length of the longest rising run that starts with it.
 */
function inOrder(seqs: readonly number[]): boolean[] {
  const startingAt = new Array<number>(seqs.length);
  // best[k]: the largest first seq of a rising run of length k + 1 in what follows (decreasing in k).
  const best: number[] = [];
  for (let i = seqs.length - 1; i >= 0; i--) {
    const seq = seqs[i]!;
    let low = 0;
    let high = best.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (best[mid]! > seq) low = mid + 1;
      else high = mid;
    }
    startingAt[i] = low + 1;
    if (low === best.length) best.push(seq);
    else if (best[low]! < seq) best[low] = seq;
  }
  const keep = new Array<boolean>(seqs.length).fill(false);
  let need = best.length;
  let last = -Infinity;
  for (let i = 0; i < seqs.length && need > 0; i++) {
    if (startingAt[i] === need && seqs[i]! > last) {
      keep[i] = true;
      last = seqs[i]!;
      need--;
    }
  }
  return keep;
}
