import type { PlanChangeItem, TranscriptItem } from '../../../../shared/transcript';

/**
 * The transcript as rows: consecutive plan-change lines become one row that expands, so a plan of
 * six steps adds one line, not fifteen (the panel above the composer already shows each change).
 * Replies with no text (tool-only turns) render nothing, so they don't split a run of changes.
 */
export type TranscriptRow =
  | { kind: 'item'; item: TranscriptItem }
  /** Keyed by its first change, so the row keeps its identity (and open state) as it grows. */
  | { kind: 'plan_changes'; id: string; items: PlanChangeItem[] };

export function isInvisible(item: TranscriptItem): boolean {
  if (item.kind === 'thinking') return item.status === 'discarded' || (!item.redacted && item.status !== 'streaming' && !item.text.trim());
  return item.kind === 'assistant' && item.status !== 'streaming' && !item.text.trim();
}

export function transcriptRows(items: readonly TranscriptItem[]): TranscriptRow[] {
  const rows: TranscriptRow[] = [];
  let run: PlanChangeItem[] = [];
  const endRun = () => {
    if (run.length === 1) rows.push({ kind: 'item', item: run[0]! });
    else if (run.length > 1) rows.push({ kind: 'plan_changes', id: run[0]!.id, items: run });
    run = [];
  };
  for (const item of items) {
    if (isInvisible(item)) continue;
    if (item.kind === 'plan_change') {
      run.push(item);
      continue;
    }
    endRun();
    rows.push({ kind: 'item', item });
  }
  endRun();
  return rows;
}

/** "step 2 “Write tests” completed" from "Updated plan: step 2 “Write tests” completed". */
export function changeSummary(text: string): string {
  return text.replace(/^(Updated|Created) plan:\s*/, (_m, verb: string) => (verb === 'Created' ? 'created: ' : ''));
}
