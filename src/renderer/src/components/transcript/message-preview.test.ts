import { describe, expect, it } from 'vitest';
import { messagePreview, PREVIEW_CHARS, PREVIEW_LINES } from './message-preview';

describe('messagePreview', () => {
  it('leaves a message that is not clearly long as it is', () => {
    expect(messagePreview('Hello')).toBeNull();
    expect(messagePreview(Array.from({ length: 16 }, (_, i) => `line ${i}`).join('\n'))).toBeNull();
    expect(messagePreview('word '.repeat(200))).toBeNull();
  });

  it('cuts a long pasted log after its first lines and says how many there are', () => {
    const log = Array.from({ length: 4213 }, (_, i) => `2025-01-01 12:00:${i} INFO step ${i} done`).join('\n');
    const preview = messagePreview(log);
    expect(preview?.text.split('\n')).toHaveLength(PREVIEW_LINES);
    expect(preview?.text.length).toBeLessThanOrEqual(PREVIEW_CHARS);
    expect(log.startsWith(preview!.text)).toBe(true);
    expect(preview?.shown).toBe(`12 of 4,213 lines`);
  });

  it('cuts a 200 KB single line at a space near the limit, counting characters', () => {
    const text = 'A very long pasted sentence. '.repeat(7000);
    const preview = messagePreview(text);
    expect(preview!.text.length).toBeLessThanOrEqual(PREVIEW_CHARS);
    expect(preview!.text.length).toBeGreaterThan(PREVIEW_CHARS * 0.8);
    expect(text.startsWith(preview!.text)).toBe(true);
    expect(text[preview!.text.length]).toBe(' '); // cut between words
    expect(preview!.shown).toBe(`${preview!.text.length.toLocaleString('en-US')} of 203,000 characters`);
  });
});
