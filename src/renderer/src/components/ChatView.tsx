import { useWaypoint } from '../store/store-context';
import { isPlanVisible } from '../../../shared/plan';
import { PendingApproval } from './approval/PendingApproval';
import { PendingEscalation } from './escalation/PendingEscalation';
import { RunNotices } from './run/RunNotices';
import { Composer } from './Composer';
import { ResumeBar } from './sessions/ResumeBar';
import { InlineTaskPlan } from './plan/InlineTaskPlan';
import { Transcript } from './transcript/Transcript';

/** The current chat: transcript, the plan panel right above the composer, the composer. */
export function ChatView() {
  const sessionId = useWaypoint((s) => s.currentSessionId);
  const items = useWaypoint((s) => (sessionId ? s.transcripts[sessionId] : undefined));
  const plan = useWaypoint((s) => (sessionId ? s.plans[sessionId] : null));
  const runState = useWaypoint((s) => (sessionId ? s.runStates[sessionId] : undefined));
  const announcement = useWaypoint((s) => s.announcement);
  const composerError = useWaypoint((s) => s.composerError);
  const sendMessage = useWaypoint((s) => s.sendMessage);
  const stop = useWaypoint((s) => s.stop);
  const clearComposerError = useWaypoint((s) => s.clearComposerError);
  const working = !!runState && runState.status !== 'idle';
  // A stuck step's question sits at that step in the plan panel (or here when there is no panel).
  const escalation = useWaypoint((s) => (sessionId ? (s.escalations[sessionId] ?? null) : null));
  const attention = escalation ? { stepId: escalation.stepId, element: <PendingEscalation sessionId={sessionId} /> } : undefined;

  return (
    <div className="chat">
      <Transcript items={items} announcement={announcement} />
      <div className="chat-bottom">
        <RunNotices sessionId={sessionId} />
        <ResumeBar />
        <InlineTaskPlan plan={plan} attention={attention} />
        {attention && !isPlanVisible(plan) && attention.element}
        <PendingApproval sessionId={sessionId} />
        <Composer
          key={sessionId ?? 'none'}
          working={working}
          error={composerError}
          onSend={sendMessage}
          onStop={() => void stop()}
          onEdit={clearComposerError}
        />
      </div>
    </div>
  );
}
