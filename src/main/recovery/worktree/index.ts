export { gitRunner, GIT_MISSING_MESSAGE, type GitRunner } from './git';
export { makeChatWorktree, removeWorktree, type WorktreeStart } from './worktree-create';
export { worktreeChanges, worktreeFileDiff, revertWorktreeFile, requireFolder, worktreeGone } from './worktree-changes';
export { mergeWorktree, commitWorktree } from './worktree-merge';
export { worktreesDirOf, forgetChatWorktree, sweepOrphanWorktrees, worktreeUsage } from './worktree-folders';
