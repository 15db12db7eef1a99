import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mcpToolChoices, ruleTarget } from './rule-targets';

describe('rule targets in the Tool list', () => {
  it('any server and tool name (quotes, colons, unicode) comes back exactly from its option', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), fc.array(fc.string({ minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 5 }), (server, tools) => {
        const [group] = mcpToolChoices([{ name: server, transport: 'stdio', status: 'ready', toolCount: tools.length, tools }]);
        expect(group!.tools.map((choice) => ruleTarget(choice.value))).toEqual(tools.map((tool) => ({ tool, server })));
      }),
    );
  });

  it("Waypoint's own tools stay themselves; servers not ready, or without tools, offer nothing", () => {
    expect(ruleTarget('run_command')).toEqual({ tool: 'run_command' });
    expect(
      mcpToolChoices([
        { name: 'a', transport: 'stdio', status: 'starting' },
        { name: 'b', transport: 'http', status: 'ready', toolCount: 0, tools: [] },
        { name: 'c', transport: 'stdio', status: 'failed', error: 'x', stderrTail: '' },
      ]),
    ).toEqual([]);
  });
});
