import { createContext } from 'react';

/**
 * Whether a prompt takes the focus when it appears. In the chat it does (the person lands on what
 * is asked); in the "Needs you" dialog several prompts show at once and the dialog keeps the focus
 * where the person put it, so it turns this off for the prompts it holds.
 */
export const PromptTakesFocus = createContext(true);
