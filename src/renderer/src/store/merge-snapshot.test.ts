import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../shared/transcript';
import { mergeSnapshot } from './transcript-ops';

const item = (id: string, createdAt: string): TranscriptItem => ({ id, kind: 'user', text: id, createdAt });

describe('mergeSnapshot', () => {
  it('keeps items that arrived while the snapshot was fetched, after it', () => {
    const snapshot = [item('a', '2025-01-01T00:00:01Z'), item('b', '2025-01-01T00:00:02Z')];
    const held = [item('a', '2025-01-01T00:00:01Z'), item('c', '2025-01-01T00:00:03Z')];
    expect(mergeSnapshot(held, snapshot).map((i) => i.id)).toEqual(['a', 'b', 'c']);
  });

  it('drops held items older than the snapshot that it no longer has: an edit cut them while this window was away', () => {
    const held = [item('a', '2025-01-01T00:00:01Z'), item('old', '2025-01-01T00:00:02Z')];
    const snapshot = [item('a', '2025-01-01T00:00:01Z'), item('rerun', '2025-01-01T00:00:05Z'), item('new', '2025-01-01T00:00:05Z')];
    expect(mergeSnapshot(held, snapshot).map((i) => i.id)).toEqual(['a', 'rerun', 'new']);
  });
});
