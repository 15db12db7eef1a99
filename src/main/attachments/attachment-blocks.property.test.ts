import type { MessageCreateParamsBase, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_LIMITS } from '../../shared/attachments';
import { attachmentBlock, attachmentRefs, fitToRequest, resolveAttachments, type AttachmentSource } from './attachment-blocks';
import type { StoredMeta } from './attachment-store';

// The request's attachments: references in the history, bytes only in what is sent, within the
// API's per-request limits (newest first), the same request for the same history every time.

const meta = fc.oneof(
  fc.record({ kind: fc.constant('image' as const), mediaType: fc.constant('image/png'), size: fc.integer({ min: 1, max: 3_900_000 }) }),
  fc.record({ kind: fc.constant('pdf' as const), mediaType: fc.constant('application/pdf'), size: fc.integer({ min: 1, max: 9_000_000 }), pages: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('text' as const), mediaType: fc.constant('text/plain'), size: fc.integer({ min: 1, max: 500_000 }) }),
);

describe('fitToRequest', () => {
  it('never passes a per-request limit, keeps the newest first, and names what it leaves out', () => {
    fc.assert(
      fc.property(fc.array(fc.option(meta, { freq: 8 }), { maxLength: 140 }), (metas) => {
        const decisions = fitToRequest(metas.map((m) => ({ meta: m as StoredMeta | null })));
        const sent = decisions.flatMap((d) => (d.kind === 'send' ? [d.meta] : []));
        expect(sent.filter((m) => m.kind === 'image').length).toBeLessThanOrEqual(ATTACHMENT_LIMITS.maxImagesPerRequest);
        expect(sent.reduce((n, m) => n + (m.kind === 'pdf' ? (m.pages ?? 1) : 0), 0)).toBeLessThanOrEqual(ATTACHMENT_LIMITS.maxPdfPagesPerRequest);
        expect(sent.reduce((n, m) => n + (m.kind === 'text' ? m.size : Math.ceil(m.size / 3) * 4), 0)).toBeLessThanOrEqual(ATTACHMENT_LIMITS.attachmentBytesPerRequest);
        decisions.forEach((d, i) => {
          if (metas[i] === null) expect(d.kind).toBe('missing');
          if (d.kind === 'omit') expect(d.why).toMatch(/at most|size limit/);
        });
        // The newest file always goes when it fits alone.
        const last = metas.at(-1);
        if (last) expect(decisions.at(-1)!.kind).toBe('send');
      }),
    );
  });

  it('101 images: the oldest is left out', () => {
    const decisions = fitToRequest(Array.from({ length: 101 }, () => ({ meta: { kind: 'image', mediaType: 'image/png', size: 100 } as StoredMeta })));
    expect(decisions[0]!.kind).toBe('omit');
    expect(decisions.slice(1).every((d) => d.kind === 'send')).toBe(true);
  });
});

/** An in-memory store: files by id. */
function source(files: Record<string, { meta: StoredMeta; bytes: Buffer }>): AttachmentSource {
  return {
    meta: async (id) => files[id]?.meta ?? null,
    base64: async (id) => files[id]?.bytes.toString('base64') ?? null,
    read: async (id) => files[id]?.bytes ?? null,
  };
}

const id = (c: string) => c.repeat(64);

describe('resolveAttachments', () => {
  const files = {
    [id('a')]: { meta: { kind: 'image', mediaType: 'image/webp', size: 4 } as StoredMeta, bytes: Buffer.from('webp') },
    [id('b')]: { meta: { kind: 'pdf', mediaType: 'application/pdf', size: 5, pages: 2 } as StoredMeta, bytes: Buffer.from('%PDF-') },
    [id('c')]: { meta: { kind: 'text', mediaType: 'text/plain', size: 5 } as StoredMeta, bytes: Buffer.from('hello') },
  };
  const history: MessageParam[] = [
    { role: 'user', content: [attachmentBlock({ id: id('a'), name: 'a [1].webp', kind: 'image' }), attachmentBlock({ id: id('b'), name: 'b.pdf', kind: 'pdf' }), attachmentBlock({ id: id('c'), name: 'c "q".txt', kind: 'text' }), { type: 'text', text: 'look' }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'shot', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'shot' }, attachmentBlock({ id: id('a'), name: 'shot.webp', kind: 'image' })] }, attachmentBlock({ id: id('d'), name: 'gone.png', kind: 'image' })] },
  ];
  const request: MessageCreateParamsBase = { model: 'm', max_tokens: 10, messages: history };

  it('fills in every reference (tool results too), keeps cache_control, and leaves the history alone', async () => {
    const before = JSON.stringify(history);
    const lastBlocks = history[2]!.content as unknown as Array<Record<string, unknown>>;
    const withCache = { ...request, messages: [...history.slice(0, 2), { role: 'user', content: [lastBlocks[0], { ...lastBlocks[1], cache_control: { type: 'ephemeral' } }] }] };
    const out = await resolveAttachments(withCache as MessageCreateParamsBase, source(files));
    expect(JSON.stringify(history)).toBe(before);
    const [first, , third] = out.messages as unknown as Array<{ content: Array<Record<string, unknown>> }>;
    expect(first!.content[0]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/webp', data: Buffer.from('webp').toString('base64') } });
    expect(first!.content[1]).toEqual({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from('%PDF-').toString('base64') }, title: 'b.pdf' });
    expect(first!.content[2]).toEqual({ type: 'text', text: `<file name="c &quot;q&quot;.txt" sha256="${id('c')}">\nhello\n</file sha256="${id('c')}">` });
    expect((third!.content[0]!.content as Array<{ type: string }>)[1]!.type).toBe('image');
    expect(third!.content[1]).toEqual({ type: 'text', text: expect.stringContaining('"gone.png" could not be sent'), cache_control: { type: 'ephemeral' } });
    expect(JSON.stringify(out)).not.toContain('waypoint-attachment:');
    // The same history gives the same request (the prompt cache needs byte-identical prefixes).
    expect(JSON.stringify(await resolveAttachments(withCache as MessageCreateParamsBase, source(files)))).toBe(JSON.stringify(out));
  });

  it('lists the references in order, names included', () => {
    expect(attachmentRefs(history).map((r) => r.name)).toEqual(['a [1].webp', 'b.pdf', 'c "q".txt', 'shot.webp', 'gone.png']);
  });

  it('a request without references is passed through as it is', async () => {
    const plain: MessageCreateParamsBase = { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] };
    expect(await resolveAttachments(plain, source({}))).toBe(plain);
  });
});
