import type { PauseBoard } from '../../common/pause-board';
import type { HeldCallAnswer, PauseContext, PauseKind, PauseRequest } from './pause-kind';

/** How a live run's wait ended: by an answer (its effect), or by Stop (the kind's cancellation). */
export interface PauseEnd {
  by: 'answer' | 'stop';
  held: HeldCallAnswer;
}

/** What a run waits with while its chat awaits a person. */
export interface RunPauses {
  settled<Request extends PauseRequest, Answer>(request: Request, signal: AbortSignal, kind: PauseKind<Request, Answer>): Promise<PauseEnd>;
}

/**
 * One run's view of the pause board: the request is already the chat's awaiting state (published
 * and logged by the caller); this waits until the one answer path decided its effect, or Stop.
 */
export function runPauses(board: PauseBoard<HeldCallAnswer>, context: PauseContext): RunPauses {
  return {
    async settled(request, signal, kind) {
      const outcome = await board.await(context.session.summary.id, request.id, signal);
      if (outcome.kind === 'cancelled') return { by: 'stop', held: kind.cancelled(context, request) };
      return { by: 'answer', held: await outcome.settled };
    },
  };
}
