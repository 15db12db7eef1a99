/** Test support: stand-ins for the parts a run needs that a test of another part does without. */
import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import type { RequestAttachments } from '../../src/main/agent/ports';
import type { ToolImage } from '../../src/main/tools/tool';

/**
 * No attachment store: requests go out as built (a test that sends no attachment has no
 * references to fill in), and images a tool returns are named, not sent.
 */
export const noAttachments: RequestAttachments = {
  resolve: (request: MessageCreateParamsBase) => Promise.resolve(request),
  fromTool: (_toolName: string, images: readonly ToolImage[]) =>
    Promise.resolve({ attachments: [], problems: [`[${images.length} image(s) the tool returned could not be passed on.]`] }),
};
