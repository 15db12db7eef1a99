import type { WaypointEvent } from '../../../shared/contract';
import type { AssistantItem, TranscriptItem, WebSource } from '../../../shared/transcript';
import { assistantItem } from '../../common/transcript-items';

export interface ReplyItemOutput {
  publish(event: WaypointEvent): void;
  /** The item as the session holds it now (deltas applied). */
  current(itemId: string): TranscriptItem | undefined;
}

/**
 * The assistant bubble of one model turn, across the attempts of its request. It appears with the
 * first text. When an attempt fails and is retried, its text stays on screen during the wait and
 * is replaced (not appended to) when the next attempt writes, so the final reply shows once.
 */
export class ReplyItem {
  private item: AssistantItem | null = null;
  private stale = false;

  constructor(
    private readonly sessionId: string,
    private readonly out: ReplyItemOutput,
  ) {}

  append(delta: string): void {
    if (!this.item) {
      this.item = assistantItem();
      this.out.publish({ type: 'transcript_item', sessionId: this.sessionId, item: this.item });
    } else if (this.stale) {
      this.reset();
    }
    if (delta) this.out.publish({ type: 'message_delta', sessionId: this.sessionId, itemId: this.item.id, text: delta });
  }

  /** The current attempt failed and another follows: its text is to be replaced. */
  markStale(): void {
    this.stale = this.item !== null;
  }

  /** An attempt succeeded without writing text: the failed attempt's text must not stay. */
  dropStaleText(): void {
    if (this.stale) this.reset();
  }

  /** The text the current attempt has streamed so far ('' when it is a failed attempt's). */
  liveText(): string {
    if (!this.item || this.stale) return '';
    const current = this.out.current(this.item.id);
    return current?.kind === 'assistant' ? current.text : '';
  }

  /** `sources`: the web pages the reply cites (web search), listed under it. */
  finish(status: AssistantItem['status'], stopReason: string | null, sources: WebSource[] = []): void {
    if (!this.item) return;
    const current = this.out.current(this.item.id);
    const text = current?.kind === 'assistant' ? current.text : '';
    this.out.publish({ type: 'transcript_item', sessionId: this.sessionId, item: { ...this.item, text, status, ...(sources.length ? { sources } : {}) } });
    this.out.publish({ type: 'message_done', sessionId: this.sessionId, itemId: this.item.id, stopReason });
  }

  private reset(): void {
    if (!this.item) return;
    this.stale = false;
    this.out.publish({ type: 'transcript_item', sessionId: this.sessionId, item: { ...this.item, text: '', status: 'streaming' } });
  }
}
