import type { Dialect } from '../../../shared/plan';
import type { SessionSummary } from '../../../shared/transcript';
import { noticeItem } from '../../common/transcript-items';
import type { PlanningServices } from '../../app/planning-services';
import type { Disposable } from '../../common/emitter';

/** How a client's chat is titled: its name first, so the app's list says whose plan it is. */
export function clientTitle(client: string, goal?: string): string {
  if (!goal) return `${client} · planning over MCP`;
  const line = goal.replace(/\s+/g, ' ').trim();
  return `${client}: ${line.length > 60 ? `${line.slice(0, 59).trimEnd()}…` : line}`;
}

/**
 * The one chat an MCP client plans in. It is made on the client's first tool call (listing the
 * tools makes nothing). A server restarted for the same client name, data folder and planning
 * style carries on that client's newest chat while its plan is still active, unless another live
 * process writes that chat (the same client started twice): then it gets a chat of its own.
 */
export class ClientChat implements Disposable {
  private sessionId: string | null = null;
  private titledPlan: string | null = null;
  private readonly subscription: Disposable;

  constructor(
    private readonly services: PlanningServices,
    private readonly client: () => string,
    private readonly say: (message: string) => void,
  ) {
    // The title follows the plan's goal, keeping the client's name in front.
    this.subscription = services.plans.onPlanUpdated(({ sessionId, plan }) => {
      if (sessionId !== this.sessionId || plan.id === this.titledPlan) return;
      this.titledPlan = plan.id;
      services.chats.renameSession(sessionId, clientTitle(this.client(), plan.goal));
    });
  }

  get current(): string | null {
    return this.sessionId;
  }

  /** The client's chat, made or continued now if this is its first call. */
  ensure(): string {
    if (this.sessionId) return this.sessionId;
    const continued = this.continuable();
    if (continued) {
      this.sessionId = continued.id;
      this.titledPlan = this.services.plans.getPlan(continued.id)?.id ?? null;
      this.services.chats.addNotice(continued.id, noticeItem('info', `${this.client()} continues this plan over MCP (waypoint mcp, pid ${process.pid}).`, 'mcp_client'));
      this.say(`continuing chat ${continued.id} ("${continued.title}"): its plan is still active.`);
      return continued.id;
    }
    const style: Dialect = this.services.style;
    const created = this.services.chats.newSession({ title: clientTitle(this.client()), origin: { kind: 'mcp', client: this.client(), style }, workspace: null });
    this.sessionId = created.id;
    this.services.chats.addNotice(created.id, noticeItem('info', `${this.client()} plans here over MCP with the ${style} planning tools (waypoint mcp, pid ${process.pid}).`, 'mcp_client'));
    this.say(`planning for ${this.client()} in chat ${created.id}.`);
    return created.id;
  }

  dispose(): void {
    this.subscription.dispose();
  }

  private continuable(): SessionSummary | null {
    const { chats, plans, sessions, style } = this.services;
    const newest = chats.listSessions().find((s) => s.origin?.kind === 'mcp' && s.origin.client === this.client() && s.origin.style === style);
    if (!newest || plans.getPlan(newest.id)?.status !== 'active') return null;
    try {
      sessions.claim(newest.id);
      return newest;
    } catch (error) {
      this.say(`not continuing chat ${newest.id}: ${(error as Error).message} Starting a new chat.`);
      return null;
    }
  }
}
