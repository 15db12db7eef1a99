import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import type { ApprovalRule, ApprovalRuleFields } from '../../shared/approval-rules';
import type { Attachment } from '../../shared/attachments';
import type { ApiKeyState, Settings } from '../../shared/settings';
import type { Disposable } from '../common/emitter';
import type { ToolImage } from '../tools/tool';
import type { RecoveryService } from '../recovery/recovery-service';

/**
 * What the loop needs of the app's settings and key, declared here where they are used; the
 * stores in src/main/sessions satisfy them structurally and never import the loop.
 */

/** Settings as the loop reads them; the store behind it owns validation and persistence. */
export interface SettingsSource {
  get(): Settings;
  onDidChange(listener: (settings: Settings) => void): Disposable;
  /** "Always approve": saves a rule for every chat (validated; the same rule twice is kept once). */
  addApprovalRule(fields: ApprovalRuleFields): Promise<ApprovalRule>;
}

/**
 * The API key, readable only in main. The renderer only ever learns ApiKeyState.
 * A key typed in Settings wins over ANTHROPIC_API_KEY from the environment.
 */
export interface ApiKeySource {
  getKey(): string | null;
  state(): ApiKeyState;
}

/** Attachments as the loop uses them (attachments/attachment-service.ts satisfies it). */
export interface RequestAttachments {
  /** The request with every attachment reference replaced by its bytes, within the API's per-request limits. */
  resolve(request: MessageCreateParamsBase): Promise<MessageCreateParamsBase>;
  /** Images a tool returned, checked, scaled and stored; those that cannot go become sentences. */
  fromTool(toolName: string, images: readonly ToolImage[]): Promise<{ attachments: Attachment[]; problems: string[] }>;
}

/**
 * What the runs, reruns and answers need of recovery (recovery/recovery-service.ts): the executor's
 * hooks, escalation answers, checkpoints and their undo.
 */
export type LoopRecovery = Pick<RecoveryService, 'plans' | 'hooksFor' | 'resetChat' | 'previewUndo' | 'undo' | 'copyCheckpoints' | 'previewTurns' | 'restoreTurns'>;
