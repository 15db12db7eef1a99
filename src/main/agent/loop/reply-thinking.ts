import type { WaypointEvent } from '../../../shared/contract';
import type { ThinkingItem, TranscriptItem } from '../../../shared/transcript';
import { newItemId, nowIso } from '../../common/transcript-items';

export interface ReplyThinkingOutput {
  publish(event: WaypointEvent): void;
  current(itemId: string): TranscriptItem | undefined;
}

/**
 * The thinking blocks of one model turn as transcript items, one per block, streamed like the
 * reply. A failed attempt's blocks are discarded (hidden) when the request is retried, so the
 * turn shows the thinking of the attempt that answered.
 */
export class ReplyThinking {
  private items: ThinkingItem[] = [];
  private open: ThinkingItem | null = null;

  constructor(
    private readonly sessionId: string,
    private readonly out: ReplyThinkingOutput,
  ) {}

  startBlock(redacted: boolean): void {
    const item: ThinkingItem = {
      id: newItemId(),
      createdAt: nowIso(),
      kind: 'thinking',
      text: '',
      status: redacted ? 'done' : 'streaming',
      ...(redacted ? { redacted: true } : {}),
    };
    this.items.push(item);
    this.open = redacted ? null : item;
    this.publish(item);
  }

  append(delta: string): void {
    if (!this.open || !delta) return;
    this.out.publish({ type: 'message_delta', sessionId: this.sessionId, itemId: this.open.id, text: delta });
  }

  /** The attempt failed and another follows: its thinking goes out of view. */
  discard(): void {
    for (const item of this.items) this.publish({ ...this.withText(item), status: 'discarded' });
    this.items = [];
    this.open = null;
  }

  finish(status: 'done' | 'stopped' | 'error'): void {
    for (const item of this.items) {
      if (item.redacted) continue;
      this.publish({ ...this.withText(item), status });
    }
    this.items = [];
    this.open = null;
  }

  private withText(item: ThinkingItem): ThinkingItem {
    const current = this.out.current(item.id);
    return current?.kind === 'thinking' ? { ...item, text: current.text } : item;
  }

  private publish(item: ThinkingItem): void {
    this.out.publish({ type: 'transcript_item', sessionId: this.sessionId, item });
  }
}
