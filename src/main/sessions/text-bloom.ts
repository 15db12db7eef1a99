/** Bits per layer: 32 KB. A new layer starts once a fifth of the current one is set. */
const LAYER_BITS = 1 << 18;
const SHIFT = 32 - 18;
const FULL = LAYER_BITS / 5;

/**
 * Which three-character pieces a set of texts holds, approximately (a Bloom filter, one bit per
 * piece): `mayContain` never says no for a needle that is a substring of a text added, and
 * rarely says yes for one of three characters or more that is not (a shorter needle is always a
 * maybe). A chat keeps one over the sidebar text of the items that left memory, so the sidebar
 * search skips a chat's log when the log cannot hold the needle (session-search.ts). It only
 * grows: an item cut or replaced leaves its pieces (a yes then costs a read, never a miss).
 */
export class TextBloom {
  private readonly layers: Uint32Array[] = [];
  private filled = 0;
  private added = false;

  /** Adds a text (lower-cased as the search compares). One multiply per character: it runs on every item at load. */
  add(text: string): void {
    this.added = true;
    if (text.length < 3) return;
    let layer = this.layer();
    let x = text.charCodeAt(0);
    let y = text.charCodeAt(1);
    for (let i = 2; i < text.length; i++) {
      const z = text.charCodeAt(i);
      const bit = piece(x, y, z);
      const mask = 1 << (bit & 31);
      if ((layer[bit >>> 5]! & mask) === 0) {
        layer[bit >>> 5]! |= mask;
        if (++this.filled > FULL) layer = this.layer();
      }
      x = y;
      y = z;
    }
  }

  /** False only when no text added holds `needle` (lower-cased). */
  mayContain(needle: string): boolean {
    if (needle.length < 3) return this.added;
    // Each piece may sit in any layer (a text's pieces can straddle a new layer).
    for (let i = 2; i < needle.length; i++) {
      const bit = piece(needle.charCodeAt(i - 2), needle.charCodeAt(i - 1), needle.charCodeAt(i));
      if (!this.layers.some((layer) => (layer[bit >>> 5]! & (1 << (bit & 31))) !== 0)) return false;
    }
    return true;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.layers.length * (LAYER_BITS / 8);
  }

  /** The layer to add to: the newest, or a new one once it is full enough. */
  private layer(): Uint32Array {
    const last = this.layers.at(-1);
    if (last && this.filled <= FULL) return last;
    const layer = new Uint32Array(LAYER_BITS / 32);
    this.layers.push(layer);
    this.filled = 0;
    return layer;
  }
}

/** The bit of a piece: its three UTF-16 units mixed by one multiply (the top bits are the best mixed). */
function piece(x: number, y: number, z: number): number {
  return Math.imul((x << 16) ^ (y << 8) ^ z ^ ((y >>> 8) << 24), 0x9e3779b1) >>> SHIFT;
}
