export { gitRunner, type GitRunner } from './git';
export { makeChatWorktree, removeWorktree, removeLeftWorktree, adoptLeftWorktree, type WorktreeStart } from './worktree-create';
export { worktreeChanges, worktreeFileDiff, revertWorktreeFile, requireFolder } from './worktree-changes';
export { mergeWorktree } from './worktree-merge';
export { worktreesDirOf, forgetChatWorktree, sweepOrphanWorktrees, worktreeUsage } from './worktree-folders';
