import { describe, expect, it } from 'vitest';
import { attachmentBlock, attachmentRefs } from '../../attachments/attachment-blocks';
import { estimateBlock } from './token-estimate';

// Attachments are references in the history while a request is measured: the estimate sizes
// them from what the reference says, as the API counts them (images by pixels, PDFs by pages).
const id = 'a'.repeat(64);

describe('token estimate of attachment references', () => {
  it('counts an image by its pixels (width × height / 750), at most the resized maximum', () => {
    const small = estimateBlock(attachmentBlock({ id, name: 'icon.png', kind: 'image', width: 200, height: 150, size: 5_000 }));
    const large = estimateBlock(attachmentBlock({ id, name: 'photo.jpg', kind: 'image', width: 1568, height: 1176, size: 900_000 }));
    expect(small).toBe(3 + Math.ceil((200 * 150) / 750));
    expect(large).toBe(3 + 1_600);
  });

  it('counts a PDF by its pages and a text file by its bytes', () => {
    const pdf = estimateBlock(attachmentBlock({ id, name: 'report.pdf', kind: 'pdf', pages: 12, size: 400_000 }));
    const text = estimateBlock(attachmentBlock({ id, name: 'log.txt', kind: 'text', size: 40_000 }));
    expect(pdf).toBe(3 + 12 * 3_000);
    expect(text).toBe(3 + 10_000);
  });

  it('sizes a reference logged before it carried facts at the API maxima, and keeps its id and name readable', () => {
    expect(estimateBlock({ type: 'image', source: { type: 'url', url: `waypoint-attachment:${id}#old.png` } })).toBe(3 + 1_600);
    expect(estimateBlock({ type: 'document', source: { type: 'url', url: `waypoint-attachment:${id}#old.pdf` }, title: 'old.pdf' })).toBe(3 + 3_000);
    const block = attachmentBlock({ id, name: 'a b#c.pdf', kind: 'pdf', pages: 2, size: 10 });
    expect(attachmentRefs([{ role: 'user', content: [block] }])).toEqual([{ id, name: 'a b#c.pdf' }]);
  });
});
