import { useId } from 'react';
import { subAgentProgress, subAgentStatusText, type SubAgentLine } from '../../../../shared/subagents';
import type { ToolCallItem } from '../../../../shared/transcript';
import { isAskingFor } from '../../store/chat-asking';
import { useWaypoint } from '../../store/store-context';
import { Icon } from '../icons/Icon';
import { ThinkingBlock } from './ThinkingBlock';
import { useDisclosure } from './use-disclosure';

/** The chat whose sub-agent a delegate call started: tool_use ids are unique, so any chat's list will do. */
function useChatOfCall(toolUseId: string): string | undefined {
  return useWaypoint((s) => Object.keys(s.subagents).find((sessionId) => s.subagents[sessionId]?.some((a) => a.parentToolUseId === toolUseId)));
}

/**
 * A delegate call in the transcript (docs/contract.md §10): one card "Sub-agent: TITLE" that
 * expands to the sub-agent's status, its plan, its replies and tool calls (as they happen, and
 * from the chat's log after a reload) and what it returned. The button's name is the title alone; the status
 * sits beside it so the name stays what the contract says.
 */
export function SubAgentCard({ item }: { item: ToolCallItem }) {
  const chat = useChatOfCall(item.toolUseId);
  const agent = useWaypoint((s) => (chat ? s.subagents[chat]?.find((a) => a.parentToolUseId === item.toolUseId) : undefined));
  // Whether it waits for the person (the chat's question is its, or its own waits in line).
  const waits = useWaypoint((s) => !!chat && !!agent && isAskingFor(s, chat, agent));
  const [open, setOpen] = useDisclosure(item.id);
  const bodyId = useId();
  const name = agent ? `Sub-agent: ${agent.title}` : item.summary;
  const status = agent ? subAgentStatusText(agent.status, waits) : item.status === 'running' ? 'Working' : '';
  const progress = agent ? subAgentProgress(agent.plan) : null;
  const lines = agent?.transcript ?? [];
  const result = agent?.result ?? item.result;
  return (
    <div className={`tool-card subagent-card subagent-card--${agent?.status ?? item.status}`}>
      <div className="tool-card-header subagent-card-header">
        <button type="button" className="subagent-card-toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
          <span className="tool-card-name" data-find>{name}</span>
          <Icon name="chevron" size={14} className={`chevron${open ? ' chevron--open' : ''}`} />
        </button>
        {status && <span className="tool-card-status">{status}</span>}
        {progress && <span className="tool-card-duration">{progress}</span>}
      </div>
      <div id={bodyId} className="tool-card-body" hidden={!open}>
        {open && (
          <>
            {agent?.plan && agent.plan.steps.length > 0 && (
              <>
                <h4>Its plan: {agent.plan.goal}</h4>
                <ul aria-label="Its plan's steps">
                  {agent.plan.steps.map((step) => (
                    <li key={step.id} data-status={step.status}>
                      {step.title} ({step.status.replace('_', ' ')})
                    </li>
                  ))}
                </ul>
              </>
            )}
            {lines.length > 0 && (
              <>
                <h4>Its messages and tool calls</h4>
                <ol aria-label="Its messages and tool calls" className="subagent-card-lines">
                  {lines.map((line, i) => (
                    <AgentLine key={line.id ?? i} line={line} at={i} />
                  ))}
                </ol>
              </>
            )}
            {agent?.status === 'working' && lines.length === 0 && <p>Nothing from it yet: its messages and tool calls show here as they happen.</p>}
            {result !== undefined && (
              <>
                <h4>What it returned</h4>
                <pre className="tool-card-pre" data-find>{result}</pre>
              </>
            )}
          </>
        )}
      </div>
    </div>
  );
}

/** One line of its card, shown as the chat shows its own kind: a reply, a tool call, thinking (collapsed), a plan change. */
function AgentLine({ line, at }: { line: SubAgentLine; at: number }) {
  switch (line.kind) {
    case 'message':
      return (
        <li className="subagent-card-message">
          <p data-find>{line.text}</p>
        </li>
      );
    case 'thinking':
      return (
        <li className="subagent-card-thinking">
          <ThinkingBlock item={{ id: line.id ?? `agent-thinking-${at}`, createdAt: '', kind: 'thinking', text: line.text, status: 'done' }} />
        </li>
      );
    case 'plan':
      return (
        <li className="subagent-card-plan">
          <p className="plan-change" data-find>
            {line.text}
          </p>
        </li>
      );
    case 'tool':
      return (
        <li className="subagent-card-tool">
          <span data-find>{line.text}</span>
          {line.status && <span className="tool-card-status"> — {line.status}</span>}
          {line.result && <pre className="tool-card-pre">{line.result}</pre>}
        </li>
      );
  }
}
