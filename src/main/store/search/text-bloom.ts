/** Bits per layer, as a power of two: 32 KB in memory. A new layer starts once a fifth of the current one is set. */
const LAYER_LOG2 = 18;
/** The smallest layer a filter kept on disk has (128 bytes). */
const MIN_LAYER_LOG2 = 10;
/** Only the pieces starting every STRIDE characters are kept: a quarter of the hashing at load. */
const STRIDE = 4;

/**
 * Which three-character pieces a set of texts holds, approximately (a Bloom filter, one bit per
 * piece, of the pieces starting at every fourth character): `mayContain` never says no for a
 * lower-case ASCII needle that is a substring of a text added, lower-cased, and rarely says yes
 * for one of six characters or more that is not (a shorter or non-ASCII needle is always a maybe).
 * A needle found at any place of a text has every fourth of its pieces kept, starting at one of
 * its first four: one of those four series is all there. Texts are folded a character at a time
 * (no lower-cased copy: this runs on every item that leaves memory at load): the only characters
 * whose lower case is ASCII are ASCII letters, "İ" (to "i" and a combining dot) and the Kelvin
 * sign (to "k"), so an ASCII needle matches the folded text wherever it matches the lower-cased one. A chat keeps one over the sidebar text of the items that left memory, so the sidebar
 * search skips a chat's log when the log cannot hold the needle (session-search.ts). It only
 * grows: an item cut or replaced leaves its pieces (a yes then costs a read, never a miss).
 */
export class TextBloom {
  private readonly layers: Uint32Array[] = [];
  private filled = 0;
  private added = false;
  private readonly layerBits: number;
  private readonly shift: number;
  private readonly full: number;

  /**
   * `layerLog2`: bits per layer, as a power of two. A filter kept on disk per chat
   * (search-filter-file.ts) is sized to its texts (`forChars`): 32 KB for a chat of ten turns
   * would make 10,000 chats' filters 320 MB.
   */
  constructor(layerLog2 = LAYER_LOG2) {
    this.layerBits = 2 ** layerLog2;
    this.shift = 32 - layerLog2;
    this.full = this.layerBits / 5;
  }

  /** A filter sized for texts of about `chars` characters in all (about 10 bits a kept piece, one layer). */
  static forChars(chars: number): TextBloom {
    const log2 = Math.ceil(Math.log2(Math.max(1, (chars / STRIDE) * 10)));
    return new TextBloom(Math.min(LAYER_LOG2, Math.max(MIN_LAYER_LOG2, log2)));
  }

  /** The filter as bytes, to keep: its layer size, whether a text was added, and its layers. */
  toBytes(): Buffer {
    const head = Buffer.from([this.shift, this.added ? 1 : 0]);
    return Buffer.concat([head, ...this.layers.map((layer) => Buffer.from(layer.buffer, layer.byteOffset, layer.byteLength))]);
  }

  /** A filter `toBytes` gave; null for bytes that are not one (the filter is then made again). */
  static fromBytes(bytes: Buffer): TextBloom | null {
    if (bytes.length < 2) return null;
    const log2 = 32 - bytes[0]!;
    if (log2 < MIN_LAYER_LOG2 || log2 > LAYER_LOG2 || bytes[1]! > 1) return null;
    const bloom = new TextBloom(log2);
    const layerBytes = bloom.layerBits / 8;
    if ((bytes.length - 2) % layerBytes !== 0) return null;
    bloom.added = bytes[1] === 1;
    for (let at = 2; at < bytes.length; at += layerBytes) {
      // Copied: a Uint32Array needs an aligned buffer of its own.
      bloom.layers.push(new Uint32Array(Uint8Array.prototype.slice.call(bytes, at, at + layerBytes).buffer));
    }
    // Full as far as this filter goes: anything added later starts a new layer.
    bloom.filled = bloom.full + 1;
    return bloom;
  }

  /** Adds a text (as it is: folded here). */
  add(text: string): void {
    this.added = true;
    let layer: Uint32Array | null = null;
    for (let i = 0; i + 2 < text.length; i += STRIDE) {
      layer ??= this.layer();
      const bit = piece(fold(text.charCodeAt(i)), fold(text.charCodeAt(i + 1)), fold(text.charCodeAt(i + 2)), this.shift);
      const mask = 1 << (bit & 31);
      if ((layer[bit >>> 5]! & mask) === 0) {
        layer[bit >>> 5]! |= mask;
        if (++this.filled > this.full) layer = null;
      }
    }
  }

  /** False only when no text added holds `needle` (lower-cased). */
  mayContain(needle: string): boolean {
    // eslint-disable-next-line no-control-regex
    if (needle.length < STRIDE + 2 || /[^\x00-\x7f]/.test(needle)) return this.added;
    for (let first = 0; first < STRIDE; first++) {
      let all = true;
      for (let i = first; all && i + 2 < needle.length; i += STRIDE) all = this.has(piece(needle.charCodeAt(i), needle.charCodeAt(i + 1), needle.charCodeAt(i + 2), this.shift));
      if (all) return true;
    }
    return false;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.layers.length * (this.layerBits / 8);
  }

  /** Whether any layer holds the piece (a text's pieces can straddle a new layer). */
  private has(bit: number): boolean {
    return this.layers.some((layer) => (layer[bit >>> 5]! & (1 << (bit & 31))) !== 0);
  }

  /** The layer to add to: the newest, or a new one once it is full enough. */
  private layer(): Uint32Array {
    const last = this.layers.at(-1);
    if (last && this.filled <= this.full) return last;
    const layer = new Uint32Array(this.layerBits / 32);
    this.layers.push(layer);
    this.filled = 0;
    return layer;
  }
}

/** A character as the search's lower case has it, where that is ASCII; any other as it is. */
function fold(c: number): number {
  if (c >= 0x41 && c <= 0x5a) return c | 0x20;
  if (c < 0x80) return c;
  return c === 0x212a ? 0x6b : c === 0x130 ? 0x69 : c;
}

/** The bit of a piece: its three UTF-16 units mixed by one multiply (the top bits are the best mixed). */
function piece(x: number, y: number, z: number, shift: number): number {
  return Math.imul((x << 16) ^ (y << 8) ^ z ^ ((y >>> 8) << 24), 0x9e3779b1) >>> shift;
}
