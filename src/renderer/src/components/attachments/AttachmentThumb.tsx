import { useEffect } from 'react';
import type { Attachment } from '../../../../shared/attachments';
import { formatBytes } from '../../../../shared/attachments';
import { cleanFileName } from '../../../../shared/attachment-names';
import { useWaypoint } from '../../store/store-context';
import { Icon } from '../icons/Icon';

/** "PDF, 3 pages", "1568×392", "12 KB": what a file is, in a few words. */
export function describeAttachment(attachment: Pick<Attachment, 'kind' | 'size' | 'pages' | 'width' | 'height'>): string {
  if (attachment.kind === 'pdf') return `PDF, ${attachment.pages ?? '?'} page${attachment.pages === 1 ? '' : 's'}`;
  if (attachment.kind === 'image' && attachment.width && attachment.height) return `${attachment.width}×${attachment.height}`;
  return formatBytes(attachment.size);
}

/** A stored file: an image's preview (asked of main once), or a file icon; its name beside it. */
export function AttachmentThumb({ attachment }: { attachment: Attachment }) {
  const preview = useWaypoint((s) => s.previews[attachment.id]);
  const loadPreview = useWaypoint((s) => s.loadPreview);
  const isImage = attachment.kind === 'image';
  // Cleaned again here: a chat logged before main cleaned names at the boundary may hold any name.
  const name = cleanFileName(attachment.name);
  useEffect(() => {
    if (isImage) void loadPreview(attachment.id);
  }, [isImage, attachment.id, loadPreview]);
  return (
    <span className="attachment" title={`${name} (${describeAttachment(attachment)})`}>
      {isImage && preview ? <img className="attachment-thumb" src={preview} alt="" /> : <Icon name="file" size={18} className="attachment-icon" />}
      <span className="attachment-name" data-find>{name}</span>
      <span className="attachment-meta">{describeAttachment(attachment)}</span>
    </span>
  );
}
