// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Attachment } from '../../../../shared/attachments';
import { storeWrapper } from '../../test-support/store-wrapper';
import { AttachmentThumb } from './AttachmentThumb';
import { PendingAttachments } from './PendingAttachments';

// Issue 21, item 2: a name stored before names were cleaned at the boundary (an old log) still
// shows without its bidi override or line break, on the chip and in "Remove NAME".

afterEach(cleanup);

const tricky = 'invoice\u202Efdp.txt\nsecond line';
const stored: Attachment = { id: 'a'.repeat(64), name: tricky, kind: 'text', mediaType: 'text/plain', size: 12 };

describe('attachment names on screen', () => {
  it('a sent message shows a stored name cleaned', () => {
    const { wrapper } = storeWrapper();
    const { container } = render(<AttachmentThumb attachment={stored} />, { wrapper });
    expect(container.querySelector('.attachment-name')!.textContent).toBe('invoicefdp.txt second line');
    expect(container.querySelector('.attachment')!.getAttribute('title')).not.toMatch(/[\u202E\n]/);
  });

  it('a pending chip, uploading or ready, shows the cleaned name and is removed by it', () => {
    const { wrapper } = storeWrapper();
    render(
      <PendingAttachments
        items={[
          { localId: 'one', name: tricky, size: 12, status: 'uploading', sent: 0 },
          { localId: 'two', name: tricky, size: 12, status: 'ready', sent: 12, attachment: stored },
        ]}
        onRemove={() => undefined}
        onEmptied={() => undefined}
      />,
      { wrapper },
    );
    expect(screen.getAllByRole('button', { name: 'Remove invoicefdp.txt second line' })).toHaveLength(2);
    expect(document.body.textContent).not.toMatch(/[\u202E\n]/);
  });
});
