import { z } from 'zod';
import { cleanFileName, MAX_FILE_NAME_CHARS } from './attachment-names';

/**
 * Files the user attaches to a message (and images tools return), as the contract sees them.
 * The bytes live once in the data folder, named by their SHA-256; everything else (the log, the
 * transcript, the API history) holds only these references.
 */

const MIB = 1024 * 1024;

/**
 * The Messages API's limits (vision and PDF docs; the API's own 400s), and Waypoint's per-file
 * cap (the one Claude's apps use). Checked before anything is sent, in the renderer (size,
 * type, count) and again in main, which also reads the content.
 */
export const ATTACHMENT_LIMITS = {
  /** One file as the user picks it; images larger than the API takes are downscaled first. */
  maxFileBytes: 30 * MIB,
  /** The API refuses an image whose base64 is longer than this ("image exceeds 5 MB maximum"). */
  maxImageBase64Chars: 5 * MIB,
  /** The API refuses an image with a side longer than this. */
  maxImageEdgePx: 8000,
  /** … or longer than this when a request has more than 20 images. */
  maxManyImagesEdgePx: 2000,
  /** The API scales anything larger down to this long edge anyway: sending more costs time, not quality. */
  sendEdgePx: 1568,
  maxImagesPerMessage: 20,
  maxImagesPerRequest: 100,
  maxPdfPagesPerRequest: 100,
  /** The API's request size limit. */
  maxRequestBytes: 32 * MIB,
  /** What attachments may take of one request; the rest is the conversation itself. */
  attachmentBytesPerRequest: 24 * MIB,
  maxAttachmentsPerMessage: 20,
  /** A text file goes as text: the same cap as a typed message. */
  maxTextChars: 500_000,
  /** Uploads travel in pieces this big (base64 in a JSON frame stays far below the 16 MB frame cap). */
  uploadChunkBytes: 4 * MIB,
  /**
   * Waypoint's own caps on what it opens, read from a file's header before anything is decoded
   * (docs/security.md, "Attachment checks"): an image's declared pixels (the API's largest,
   * 8000×8000; a 48 MP phone photo fits) and frames, and what a PDF's object and cross-reference
   * streams may unpack to (pdf-lib unpacks them all to read the document).
   */
  maxImageInputPixels: 8000 * 8000,
  maxImageFrames: 1000,
  maxPdfUnpackedBytes: 32 * MIB,
} as const;

export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

export const AttachmentKind = z.enum(['image', 'pdf', 'text']);
export type AttachmentKind = z.infer<typeof AttachmentKind>;

export const AttachmentId = z.string().regex(/^[a-f0-9]{64}$/, { error: 'Not an attachment id.' });

/**
 * A file's name as it enters main: at most 255 characters as sent, then cleaned of controls,
 * line breaks and bidi overrides (attachment-names.ts); nothing left is no name.
 */
export const FileName = z
  .string()
  .max(MAX_FILE_NAME_CHARS, { error: `A file name can have at most ${MAX_FILE_NAME_CHARS} characters.` })
  .transform(cleanFileName)
  .pipe(z.string().min(1, { error: 'The file has no name.' }));

/** How a message names a stored file: its id and the name the user knows it by. */
export const AttachmentRef = z.object({ id: AttachmentId, name: FileName }).strict();
export type AttachmentRef = z.infer<typeof AttachmentRef>;

export const Attachment = z.object({
  /** SHA-256 (hex) of the stored bytes: the file's name in the data folder. */
  id: AttachmentId,
  /** The file's name as the user had it, for the chip, the transcript and Claude. */
  name: z.string().min(1).max(255),
  kind: AttachmentKind,
  mediaType: z.string().min(1).max(100),
  /** Bytes stored (after any downscaling). */
  size: z.number().int().nonnegative(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  /** PDFs: their page count (the API counts pages per request). */
  pages: z.number().int().positive().optional(),
  /** Images: the size the file had before Waypoint scaled it down to what the API takes. */
  downscaledFrom: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }).optional(),
});
export type Attachment = z.infer<typeof Attachment>;

const UploadId = z.string().min(1).max(100);
/** One piece of an upload as base64: a few characters more than a chunk's bytes need. */
const MAX_CHUNK_CHARS = Math.ceil(ATTACHMENT_LIMITS.uploadChunkBytes / 3) * 4;

export const uploadCalls = {
  /** Announces a file; a file that is too big or of a type Waypoint cannot send is refused here, before any byte moves. */
  startUpload: {
    input: z
      .object({
        name: FileName,
        size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
        /** The browser's idea of the type (may be empty); main reads the content to decide. */
        mediaType: z.string().max(200),
      })
      .strict(),
    output: z.object({ uploadId: UploadId, chunkBytes: z.number().int().positive() }),
  },
  /** The next piece, in order: `offset` is the number of bytes sent so far. */
  uploadChunk: {
    input: z
      .object({
        uploadId: UploadId,
        offset: z.number().int().nonnegative(),
        data: z
          .string()
          .min(1)
          .max(MAX_CHUNK_CHARS, { error: `A piece is larger than ${ATTACHMENT_LIMITS.uploadChunkBytes} bytes.` })
          .regex(/^[A-Za-z0-9+/]*={0,2}$/, { error: 'A piece is not base64.' }),
      })
      .strict(),
    output: z.object({ received: z.number().int().nonnegative() }),
  },
  /** Checks the whole file (type, size, pixels, pages), scales a large image down, stores it once. */
  finishUpload: {
    input: z.object({ uploadId: UploadId }).strict(),
    output: Attachment,
  },
  /** A small preview of a stored image, as a data: URL (the CSP allows data: images). */
  getAttachmentPreview: {
    input: z.object({ id: AttachmentId }).strict(),
    output: z.object({ dataUrl: z.string().nullable() }),
  },
} as const;

/** "1.2 MB", "340 KB": sizes in messages and on chips. */
export function formatBytes(bytes: number): string {
  if (bytes >= MIB) return `${(bytes / MIB).toFixed(1).replace(/\.0$/, '')} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** The kind a file name says it is, or null when its extension is not one Waypoint sends as an image or PDF. */
export function kindFromName(name: string): 'image' | 'pdf' | null {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  if (['png', 'jpg', 'jpeg', 'gif', 'webp'].includes(ext)) return 'image';
  if (ext === 'pdf') return 'pdf';
  return null;
}

/** Extensions that are never text: refused by name, before their bytes are read. */
const BINARY_EXTENSIONS = new Set([
  'exe', 'dll', 'so', 'dylib', 'bin', 'msi', 'dmg', 'iso', 'app', 'apk', 'deb', 'rpm', 'class', 'jar', 'o', 'a', 'wasm',
  'zip', 'gz', 'tgz', 'bz2', 'xz', '7z', 'rar', 'tar', 'zst',
  'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp', 'pages', 'numbers', 'key',
  'mp3', 'wav', 'flac', 'ogg', 'm4a', 'aac', 'mp4', 'mov', 'avi', 'mkv', 'webm',
  'bmp', 'tif', 'tiff', 'heic', 'heif', 'avif', 'ico', 'psd', 'svgz', 'sqlite', 'db',
]);

/** Why a file cannot be attached, judged from its name and size alone (null: it may be). */
export function refusalByNameAndSize(name: string, size: number): string | null {
  if (size > ATTACHMENT_LIMITS.maxFileBytes) {
    return `"${name}" is ${formatBytes(size)}; the limit is ${formatBytes(ATTACHMENT_LIMITS.maxFileBytes)} per file.`;
  }
  const ext = name.includes('.') ? (name.toLowerCase().split('.').pop() ?? '') : '';
  if (BINARY_EXTENSIONS.has(ext)) {
    return `"${name}" is a .${ext} file, which Claude cannot read. Attach images (PNG, JPEG, GIF, WebP), PDFs or text files.`;
  }
  if (size === 0) return `"${name}" is empty.`;
  return null;
}

/** Why these files cannot go with one message together (null: they can), before anything is sent. */
export function messageAttachmentsProblem(files: ReadonlyArray<{ name: string; kind: AttachmentKind | null; pages?: number; size: number }>): string | null {
  const images = files.filter((f) => f.kind === 'image');
  if (images.length > ATTACHMENT_LIMITS.maxImagesPerMessage) {
    return `${images.length} images are attached; at most ${ATTACHMENT_LIMITS.maxImagesPerMessage} can go with one message. Remove some, starting with "${images.at(-1)!.name}".`;
  }
  if (files.length > ATTACHMENT_LIMITS.maxAttachmentsPerMessage) {
    return `${files.length} files are attached; at most ${ATTACHMENT_LIMITS.maxAttachmentsPerMessage} can go with one message.`;
  }
  const pages = files.reduce((sum, f) => sum + (f.kind === 'pdf' ? (f.pages ?? 0) : 0), 0);
  if (pages > ATTACHMENT_LIMITS.maxPdfPagesPerRequest) {
    const last = files.filter((f) => f.kind === 'pdf').at(-1)!;
    return `The PDFs attached have ${pages} pages together; Claude reads at most ${ATTACHMENT_LIMITS.maxPdfPagesPerRequest} per request. Remove one, such as "${last.name}".`;
  }
  // An image is scaled down until its base64 fits the API's cap, so a large one picked (not yet
  // prepared) counts as at most that; a prepared one is already within it.
  const asSent = (f: { kind: AttachmentKind | null; size: number }) =>
    f.kind === 'text' ? f.size : f.kind === 'image' ? Math.min(Math.ceil(f.size / 3) * 4, ATTACHMENT_LIMITS.maxImageBase64Chars) : Math.ceil(f.size / 3) * 4;
  const encoded = files.reduce((sum, f) => sum + asSent(f), 0);
  if (encoded > ATTACHMENT_LIMITS.attachmentBytesPerRequest) {
    return `The files attached come to ${formatBytes(encoded)} as sent; one request to Claude can carry about ${formatBytes(ATTACHMENT_LIMITS.attachmentBytesPerRequest)} of files. Send some of them with the next message.`;
  }
  return null;
}
