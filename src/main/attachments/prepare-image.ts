import type { Metadata, SharpOptions } from 'sharp';
import { ATTACHMENT_LIMITS, type ImageMediaType } from '../../shared/attachments';
import { AttachmentRefusal } from './attachment-refusal';

/**
 * An image made ready for the Messages API with sharp (libvips): the whole file is decoded, so a
 * corrupt or truncated file is refused here rather than by the API; one larger than the API
 * takes (pixels or the 5 MB base64 cap) is scaled down. The API itself scales any image with a
 * long edge over 1568 px down to that, so doing it here costs Claude nothing and keeps requests
 * small. Before any pixel is decoded, the size and frame count the header declares are checked:
 * a few bytes of GIF can declare a 16000×16000 screen that decodes to 1 GB, and libvips's memory
 * is outside anything a worker's limits or its end can take back (docs/security.md).
 */

export interface PreparedImage {
  bytes: Buffer;
  mediaType: ImageMediaType;
  width: number;
  height: number;
  downscaledFrom?: { width: number; height: number };
}

const FORMATS: Record<string, ImageMediaType> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };
/** Larger inputs are refused before decoding (a decompression bomb must not take the app's memory). */
const MAX_INPUT_PIXELS = ATTACHMENT_LIMITS.maxImageInputPixels;

const base64Length = (bytes: number): number => Math.ceil(bytes / 3) * 4;

/** sharp loads native libvips: only when the first image comes, so the app starts without it. */
let library: Promise<typeof import('sharp')> | null = null;
async function sharp(input: Buffer, options?: SharpOptions) {
  const { default: create } = await (library ??= import('sharp'));
  // Only the first frame of an animation is ever decoded (pages: 1, sharp's default, said here).
  return create(input, { pages: 1, ...options });
}

export async function prepareImage(name: string, input: Buffer): Promise<PreparedImage> {
  let meta: Metadata;
  try {
    // The header only, with no pixel limit: so a too-large image is refused below in words, not by libvips.
    meta = await (await sharp(input, { limitInputPixels: false })).metadata();
  } catch (error) {
    throw new AttachmentRefusal(`"${name}" is not an image Waypoint can read (${reason(error)}).`);
  }
  const mediaType = meta.format ? FORMATS[meta.format] : undefined;
  if (!mediaType) {
    throw new AttachmentRefusal(`"${name}" is a ${meta.format?.toUpperCase() ?? 'unknown'} image; Claude takes PNG, JPEG, GIF and WebP.`);
  }
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw new AttachmentRefusal(`"${name}" has no size: the image is damaged.`);
  if (width * height > MAX_INPUT_PIXELS) {
    throw new AttachmentRefusal(
      `"${name}" is ${width}×${height} pixels; Waypoint opens images of at most ${MAX_INPUT_PIXELS / 1e6} megapixels (such as ${ATTACHMENT_LIMITS.maxImageEdgePx}×${ATTACHMENT_LIMITS.maxImageEdgePx}).`,
    );
  }
  const frames = meta.pages ?? 1;
  if (frames > ATTACHMENT_LIMITS.maxImageFrames) {
    throw new AttachmentRefusal(`"${name}" has ${frames} frames; Waypoint opens animations of at most ${ATTACHMENT_LIMITS.maxImageFrames}.`);
  }

  const fits = Math.max(width, height) <= ATTACHMENT_LIMITS.sendEdgePx && base64Length(input.length) <= ATTACHMENT_LIMITS.maxImageBase64Chars;
  if (fits) {
    // Sent as it is, but only once every pixel decoded: a truncated PNG fails here, not at the API.
    await decodeAll(name, input);
    return { bytes: input, mediaType, width, height };
  }
  return downscale(name, input, mediaType, { width, height });
}

async function decodeAll(name: string, input: Buffer): Promise<void> {
  try {
    await (await sharp(input, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })).raw().toBuffer();
  } catch (error) {
    throw new AttachmentRefusal(`"${name}" is damaged and cannot be sent (${reason(error)}).`);
  }
}

/** Scales to the send size, in the image's own format when that fits under the API's cap, else as JPEG, smaller each try. */
async function downscale(name: string, input: Buffer, mediaType: ImageMediaType, original: { width: number; height: number }): Promise<PreparedImage> {
  let edge = Math.min(ATTACHMENT_LIMITS.sendEdgePx, Math.max(original.width, original.height));
  // Already small enough in pixels, only too many bytes: its own format again would not shrink it.
  const first = edge === Math.max(original.width, original.height) ? 1 : 0;
  for (let attempt = first; attempt < 6; attempt++) {
    const asJpeg = attempt > 0 || mediaType === 'image/jpeg';
    try {
      const pipeline = (await sharp(input, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS }))
        .autoOrient()
        .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true });
      const encoded = asJpeg
        ? pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: attempt > 1 ? 75 : 85, mozjpeg: true })
        : mediaType === 'image/webp'
          ? pipeline.webp({ quality: 85 })
          : pipeline.png();
      const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
      if (base64Length(data.length) <= ATTACHMENT_LIMITS.maxImageBase64Chars) {
        return {
          bytes: data,
          mediaType: asJpeg ? 'image/jpeg' : mediaType === 'image/webp' ? 'image/webp' : 'image/png',
          width: info.width,
          height: info.height,
          downscaledFrom: original,
        };
      }
    } catch (error) {
      throw new AttachmentRefusal(`"${name}" is damaged and cannot be sent (${reason(error)}).`);
    }
    if (attempt > first) edge = Math.round(edge * 0.75);
  }
  throw new AttachmentRefusal(`"${name}" stays over the API's 5 MB image limit even scaled down.`);
}

/** A small preview for the transcript and chips (WebP, at most 320 px). */
export async function imagePreview(input: Buffer): Promise<Buffer> {
  return (await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })).autoOrient().resize({ width: 320, height: 320, fit: 'inside', withoutEnlargement: true }).webp({ quality: 70 }).toBuffer();
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.replace(/^Input buffer /, '').slice(0, 160);
}
