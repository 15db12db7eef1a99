/**
 * happy-dom lays nothing out: every element is 0 px, none has an offsetParent and its
 * ResizeObserver never reports. The virtualised transcript renders the rows that fit its viewport
 * and hides a row until it is measured, so there it would show nothing. This stand-in reports a
 * viewport `height` px tall for the scrolling log and `rowHeight` px for each transcript row.
 */
export function fakeLayout(height = 2000, rowHeight = 40): () => void {
  const original = globalThis.ResizeObserver;
  class ReportingResizeObserver {
    constructor(private readonly callback: ResizeObserverCallback) {}
    observe(target: Element) {
      const isRow = target.hasAttribute('data-row');
      // The viewport: the transcript's log, or a box marked as one (the virtualised chat list).
      if (!isRow && target.getAttribute('role') !== 'log' && !target.hasAttribute('data-virtual-viewport')) return;
      // The virtualiser measures only rows that are laid out (have an offsetParent).
      if (isRow) Object.defineProperty(target, 'offsetParent', { value: target.parentElement, configurable: true });
      // Asynchronously, as a browser reports after layout.
      queueMicrotask(() =>
        this.callback([{ target, contentRect: { width: 760, height: isRow ? rowHeight : height } } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver),
      );
    }
    unobserve() {}
    disconnect() {}
  }
  globalThis.ResizeObserver = ReportingResizeObserver as unknown as typeof ResizeObserver;
  return () => {
    globalThis.ResizeObserver = original;
  };
}
