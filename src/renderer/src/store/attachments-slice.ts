import { kindFromName, messageAttachmentsProblem, refusalByNameAndSize, type Attachment } from '../../../shared/attachments';
import { cleanFileName } from '../../../shared/attachment-names';
import { messageOf } from './errors';
import type { SliceCreator } from './types';

/**
 * Files waiting to go with the next message of a chat (the composer's chips), uploaded to main
 * in pieces as soon as they are added, so Send only names them. Adding works while Claude is
 * replying: they wait for the next message. A file that cannot go is refused with an alert
 * naming it and why; the chips already there stay.
 */

export interface PendingAttachment {
  /** Until uploaded there is no id: the chip's own key. */
  localId: string;
  name: string;
  size: number;
  status: 'uploading' | 'ready';
  /** Bytes sent so far (a large file goes in several pieces). */
  sent: number;
  attachment?: Attachment;
}

export interface AttachmentsSlice {
  /** Keyed by chat id, or NEW_CHAT_KEY before the first message makes the chat. */
  pendingAttachments: Record<string, PendingAttachment[]>;
  attachmentAlert: string | null;
  /** Small previews of stored images (data: URLs), by attachment id; null when there is none. */
  previews: Record<string, string | null>;
  addFiles(files: readonly File[]): Promise<void>;
  removeAttachment(localId: string): void;
  dismissAttachmentAlert(): void;
  loadPreview(id: string): Promise<void>;
  /** Takes the chips just sent off the composer; ones added while the message was on its way stay. */
  clearAttachments(key: string, sent: readonly string[]): void;
}

export const NEW_CHAT_KEY = '';
export const chatKey = (sessionId: string | null): string => sessionId ?? NEW_CHAT_KEY;

let counter = 0;

/** A blob as base64, read natively (a 4 MB piece is one FileReader call, not a loop over bytes). */
function base64Of(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(blob);
  });
}

export const createAttachmentsSlice: SliceCreator<AttachmentsSlice> = (set, get, api) => {
  const update = (key: string, localId: string, change: (p: PendingAttachment) => PendingAttachment | null) =>
    set((state) => {
      const list = state.pendingAttachments[key] ?? [];
      const next = list.flatMap((p) => {
        if (p.localId !== localId) return [p];
        const changed = change(p);
        return changed ? [changed] : [];
      });
      return { pendingAttachments: { ...state.pendingAttachments, [key]: next } };
    });

  const uploadOne = async (key: string, localId: string, file: File): Promise<string | null> => {
    try {
      const { uploadId, chunkBytes } = await api.call('startUpload', { name: file.name, size: file.size, mediaType: file.type });
      for (let offset = 0; offset < file.size; offset += chunkBytes) {
        const data = await base64Of(file.slice(offset, offset + chunkBytes));
        const { received } = await api.call('uploadChunk', { uploadId, offset, data });
        update(key, localId, (p) => ({ ...p, sent: received }));
      }
      const attachment = await api.call('finishUpload', { uploadId });
      update(key, localId, (p) => ({ ...p, status: 'ready', sent: file.size, attachment }));
      if (attachment.kind === 'image') void get().loadPreview(attachment.id);
      return null;
    } catch (error) {
      update(key, localId, () => null);
      return messageOf(error);
    }
  };

  return {
    pendingAttachments: {},
    attachmentAlert: null,
    previews: {},
    async addFiles(files) {
      if (files.length === 0) return;
      const key = chatKey(get().currentSessionId);
      const held = get().pendingAttachments[key] ?? [];
      const refusals: string[] = [];
      const accepted = files.filter((file) => {
        // Judged, and shown, by the name main will use: controls and bidi overrides taken out.
        const refusal = refusalByNameAndSize(cleanFileName(file.name), file.size);
        if (refusal) refusals.push(refusal);
        return !refusal;
      });
      // Too many together (30 images in one message) refuses the whole batch: nothing half-added.
      const guess = (name: string, size: number) => ({ name, kind: kindFromName(name) ?? ('text' as const), size });
      const together = [...held.map((p) => p.attachment ?? guess(p.name, p.size)), ...accepted.map((f) => guess(f.name, f.size))];
      const problem = messageAttachmentsProblem(together);
      if (problem) {
        set({ attachmentAlert: [...refusals, problem].join(' ') });
        return;
      }
      set({ attachmentAlert: refusals.length ? refusals.join(' ') : null });
      const added = accepted.map((file) => ({ file, pending: { localId: `att-${++counter}`, name: cleanFileName(file.name), size: file.size, status: 'uploading' as const, sent: 0 } }));
      set((state) => ({ pendingAttachments: { ...state.pendingAttachments, [key]: [...(state.pendingAttachments[key] ?? []), ...added.map((a) => a.pending)] } }));
      // One after another: a frame never carries more than one piece, and the order is kept.
      for (const { file, pending } of added) {
        const failure = await uploadOne(key, pending.localId, file);
        if (failure) set((state) => ({ attachmentAlert: state.attachmentAlert ? `${state.attachmentAlert} ${failure}` : failure }));
      }
    },
    removeAttachment(localId) {
      const key = chatKey(get().currentSessionId);
      update(key, localId, () => null);
    },
    dismissAttachmentAlert: () => set({ attachmentAlert: null }),
    async loadPreview(id) {
      if (id in get().previews) return;
      set((state) => ({ previews: { ...state.previews, [id]: null } }));
      try {
        const { dataUrl } = await api.call('getAttachmentPreview', { id });
        set((state) => ({ previews: { ...state.previews, [id]: dataUrl } }));
      } catch {
        // No preview: the chip and the transcript show the name alone.
      }
    },
    clearAttachments(key, sent) {
      set((state) => {
        const { [key]: list = [], ...rest } = state.pendingAttachments;
        const left = list.filter((p) => !sent.includes(p.localId));
        return { pendingAttachments: left.length > 0 ? { ...rest, [key]: left } : rest };
      });
    },
  };
};
