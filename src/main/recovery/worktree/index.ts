export { gitRunner, type GitRunner } from './git';
export { makeChatWorktree, startChatWorktree, removeWorktree, removeLeftWorktree, adoptLeftWorktree, type WorktreeStarted } from './worktree-create';
export { worktreeChanges, worktreeFileDiff, revertWorktreeFile, requireFolder } from './worktree-changes';
export { mergeWorktree } from './worktree-merge';
export { worktreesDirOf, forgetChatWorktree, sweepOrphanWorktrees, worktreeUsage } from './worktree-folders';
export { checkoutUnfinished } from './worktree-unfinished';
