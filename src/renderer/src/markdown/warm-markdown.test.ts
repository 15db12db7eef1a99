import hljs from 'highlight.js/lib/core';
import { describe, expect, it } from 'vitest';
import { warmMarkdown, type IdleSchedule } from './warm-markdown';

type Compiled = { isCompiled?: boolean };

describe('warmMarkdown', () => {
  it('lexes Markdown once, then compiles every registered grammar, one step per idle callback, nothing before the first one runs', async () => {
    const queued: Array<() => void> = [];
    const schedule: IdleSchedule = (work) => queued.push(work);
    const done = warmMarkdown(schedule);
    const languages = hljs.listLanguages();
    expect(languages.length).toBeGreaterThan(3);
    // Nothing is compiled at call time: start-up itself pays nothing.
    expect(languages.filter((l) => (hljs.getLanguage(l) as Compiled).isCompiled)).toEqual([]);
    let callbacks = 0;
    while (queued.length > 0) {
      const before = languages.filter((l) => (hljs.getLanguage(l) as Compiled).isCompiled).length;
      queued.shift()!();
      callbacks++;
      const after = languages.filter((l) => (hljs.getLanguage(l) as Compiled).isCompiled).length;
      // A callback compiles one grammar (xml may pull in the css/javascript it embeds), never all at once.
      expect(after - before).toBeLessThanOrEqual(3);
    }
    expect(await done).toEqual(['markdown', ...languages]);
    expect(callbacks).toBe(languages.length + 2);
    for (const language of languages) expect((hljs.getLanguage(language) as Compiled).isCompiled).toBe(true);
  });
});
