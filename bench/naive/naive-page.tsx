import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { FullMarkdown as Markdown } from '../../src/renderer/src/markdown/Markdown';

/**
 * The naive baseline: the app's own Markdown component, but re-rendered synchronously with the
 * whole message on every single delta (no batching in main, none in the renderer).
 */
const root = createRoot(document.getElementById('root')!);

async function runNaive(deltas: string[], delayMs: number): Promise<string> {
  let text = '';
  for (const delta of deltas) {
    text += delta;
    flushSync(() =>
      root.render(
        <article className="msg msg--assistant" aria-label="Claude">
          <Markdown text={text} />
        </article>,
      ),
    );
    // The same pacing as the scripted server's SSE writer: a timer between deltas.
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
  return document.querySelector('.markdown')?.innerHTML ?? '';
}

(window as unknown as { runNaive: typeof runNaive }).runNaive = runNaive;
