import { answerProblem, type ApprovalDecision, type ApprovalRequest, type EscalationAnswer, type EscalationRequest, type QuestionRequest } from '../../shared/prompts';
import type { Disposable } from '../common/emitter';
import { UserFacingError } from '../common/errors';
import type { PlanServiceApi } from '../plan/plan-service.types';
import type { RecoveryService } from '../recovery/recovery-service';
import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { appendUser, unansweredToolUses } from '../chats/api-history';
import type { ChatRegistry } from '../chats/chat-registry';
import type { ChatSession } from '../chats/chat-session';
import { QUESTION_CANCELLED } from '../tools/ask-user';
import type { ToolRegistry } from '../tools/tool-registry';
import { approvalAfterRestart } from './approval-resume';
import { checkScopedAnswer, rememberScope } from './approval-scopes';
import { STOPPED_AWAITING_APPROVAL, type ApprovalGate } from './approval-step';
import { escalationAfterRestart } from './escalation-resume';
import type { SettingsSource } from './ports';
import { resumeAfterRestart, type ResumablePrompt } from './prompt-resume';
import { questionAfterRestart } from './question-resume';
import type { QuestionGate } from './question-step';
import { toolsForTurn } from './request-builder';
import type { RunController } from './run-controller';

export interface PromptAnswersOptions {
  chats: ChatRegistry;
  /** The approvals of risky tool calls runs wait on (escalations wait in RecoveryService). */
  approvals: ApprovalGate;
  /** Claude's questions (ask_user) runs wait on. */
  questions: QuestionGate;
  runs: RunController;
  settings: SettingsSource;
  plans: PlanServiceApi;
  recovery?: RecoveryService;
  toolsFor(session: ChatSession): ToolRegistry;
}

const STOPPED_AWAITING_ESCALATION = 'The user pressed Stop while this step waited for their decision; the plan stays as it was.';

/**
 * The user's answers to the questions runs pause on. A live run waiting on the question gets the
 * answer through its gate; a question restored after a restart is answered on the resume path
 * and a new run continues the work. Each is answered once: a second answer (another tab) is
 * refused and changes nothing.
 */
export class PromptAnswers implements Disposable {
  constructor(private readonly options: PromptAnswersOptions) {}

  /** A stale or unknown request changes nothing. */
  answerApproval(sessionId: string, requestId: string, decision: ApprovalDecision): { accepted: boolean } {
    const session = this.options.chats.require(sessionId);
    const { approvals, settings, plans } = this.options;
    const pending = approvals.pending(sessionId) ?? session.pendingApproval;
    if (pending?.id === requestId) checkScopedAnswer(pending, decision);
    if (approvals.answer(sessionId, requestId, decision)) return { accepted: true };
    const current = settings.get();
    const tools = toolsForTurn(current, plans.dialectFor(sessionId, current.planningStyle), plans, this.options.toolsFor(session));
    const remember = (request: ApprovalRequest, answer: ApprovalDecision) =>
      rememberScope({ settings, session, publish: (event) => this.options.chats.publish(session, event) }, request, answer);
    return this.resume(session, approvalAfterRestart(tools, current, remember), requestId, decision, true);
  }

  answerEscalation(sessionId: string, requestId: string, answer: EscalationAnswer): { accepted: boolean } {
    const session = this.options.chats.require(sessionId);
    const recovery = this.options.recovery;
    if (!recovery) return { accepted: false };
    if (recovery.answer(sessionId, requestId, answer)) return { accepted: true };
    return this.resume(session, escalationAfterRestart(recovery.plans), requestId, answer, answer.kind !== 'abort');
  }

  /** The answer to Claude's question; one that is not among the options (when only those are taken) is refused. */
  answerQuestion(sessionId: string, requestId: string, answer: string): { accepted: boolean } {
    const session = this.options.chats.require(sessionId);
    const { questions } = this.options;
    const pending = questions.pending(sessionId) ?? session.pendingQuestion;
    if (pending?.id === requestId) {
      const problem = answerProblem(pending, answer);
      if (problem) throw new UserFacingError('invalid_input', problem);
    }
    if (questions.answer(sessionId, requestId, answer)) return { accepted: true };
    return this.resume(session, questionAfterRestart(), requestId, answer, true);
  }

  /**
   * Stop with no run going but a question restored after a restart: the question is closed as a
   * live Stop closes it (its call answered as cancelled), and nothing is sent until the user
   * writes again. False when nothing was waiting.
   */
  cancelRestored(session: ChatSession): boolean {
    const sessionId = session.summary.id;
    if (this.options.runs.isRunning(sessionId)) return false;
    const publish = (event: Parameters<ChatRegistry['publish']>[1]) => this.options.chats.publish(session, event);
    const cancelled = this.cancellation(session);
    if (!cancelled) return false;
    cancelled.resolve(publish);
    const card = cancelled.toolUseId === undefined ? undefined : session.toolCall(cancelled.toolUseId);
    if (card) publish({ type: 'transcript_item', sessionId, item: { ...card, status: 'error', result: cancelled.text } });
    // The held call gets the cancellation; any other open one did not run.
    const results: ToolResultBlockParam[] = unansweredToolUses(session.history).map((id) => ({
      type: 'tool_result',
      tool_use_id: id,
      content: id === cancelled.toolUseId ? cancelled.text : 'Not run: the user pressed Stop while Claude waited for them.',
      is_error: true,
    }));
    session.appendUser(results);
    publish({ type: 'run_state', sessionId, state: { status: 'idle' } });
    return true;
  }

  dispose(): void {
    this.options.approvals.cancelAll();
    this.options.questions.cancelAll();
  }

  private cancellation(session: ChatSession): { toolUseId?: string; text: string; resolve(publish: (event: Parameters<ChatRegistry['publish']>[1]) => void): void } | null {
    const sessionId = session.summary.id;
    const question: QuestionRequest | null = session.pendingQuestion;
    if (question) {
      return { toolUseId: question.toolUseId, text: QUESTION_CANCELLED, resolve: (p) => p({ type: 'question_resolved', sessionId, requestId: question.id, outcome: 'cancelled' }) };
    }
    const approval: ApprovalRequest | null = session.pendingApproval;
    if (approval) {
      return { toolUseId: approval.toolUseId, text: STOPPED_AWAITING_APPROVAL, resolve: (p) => p({ type: 'approval_resolved', sessionId, requestId: approval.id, decision: 'cancelled' }) };
    }
    const escalation: EscalationRequest | null = session.pendingEscalation;
    if (escalation) {
      return {
        ...(escalation.toolUseId ? { toolUseId: escalation.toolUseId } : {}),
        text: STOPPED_AWAITING_ESCALATION,
        resolve: (p) => p({ type: 'escalation_resolved', sessionId, requestId: escalation.id, answer: 'cancelled' }),
      };
    }
    return null;
  }

  /** `continues`: a new run picks up the work afterwards (an abort stops it, and needs no key). */
  private resume<R extends ApprovalRequest | EscalationRequest | QuestionRequest, A>(
    session: ChatSession,
    kind: ResumablePrompt<R, A>,
    requestId: string,
    answer: A,
    continues: boolean,
  ): { accepted: boolean } {
    const { chats, runs } = this.options;
    if (runs.isRunning(session.summary.id) || kind.pending(session)?.id !== requestId) return { accepted: false };
    const apiKey = continues ? runs.readyToRun(session) : null;
    void resumeAfterRestart(kind, session, requestId, answer, (event) => chats.publish(session, event)).then((outcome) => {
      if (outcome === 'continue' && apiKey) runs.start(session, apiKey);
    });
    return { accepted: true };
  }
}
