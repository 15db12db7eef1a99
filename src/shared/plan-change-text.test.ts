import { describe, expect, it } from 'vitest';
import { nameStepsInChange } from './plan-change-text';

const plan = {
  steps: [
    { id: 1, title: 'Read the code' },
    { id: 2, title: 'Write tests' },
    { id: 6, title: `Make icons follow the theme colour ${'and much more '.repeat(6)}` },
  ],
} as unknown as Parameters<typeof nameStepsInChange>[1];

/** Claude added step 6 after step 2, then 7–8 at the end: positions 1, 2, 3 (id 6), 4, 5 (ids 7, 8) after 3 (id 3). */
const moved = {
  steps: [
    { id: 1, title: 'Read the code' },
    { id: 2, title: 'Write tests' },
    { id: 6, title: 'Make icons follow the theme' },
    { id: 3, title: 'Ship it' },
    { id: 7, title: 'Tell the team' },
    { id: 8, title: 'Celebrate' },
  ],
} as unknown as Parameters<typeof nameStepsInChange>[1];

describe('nameStepsInChange', () => {
  it('names each step it mentions by its number and title', () => {
    expect(nameStepsInChange('Updated plan: step 2 completed', plan)).toBe('Updated plan: step 2 “Write tests” completed');
    expect(nameStepsInChange('Updated plan: step 1 completed, step 2 started', plan)).toBe(
      'Updated plan: step 1 “Read the code” completed, step 2 “Write tests” started',
    );
    expect(nameStepsInChange('Updated plan: note on step 1', plan)).toBe('Updated plan: note on step 1 “Read the code”');
    expect(nameStepsInChange('Updated plan: step 1 attempt 2 (not_found, retrying)', plan)).toBe(
      'Updated plan: step 1 “Read the code” attempt 2 (not_found, retrying)',
    );
  });

  it('numbers a step by its position, as the panel does, not by its id', () => {
    expect(nameStepsInChange('Updated plan: step 6 started', moved)).toBe('Updated plan: step 3 “Make icons follow the theme” started');
    expect(nameStepsInChange('Updated plan: step 3 completed, step 6 started', moved)).toBe(
      'Updated plan: step 4 “Ship it” completed, step 3 “Make icons follow the theme” started',
    );
    expect(nameStepsInChange('Updated plan: steps 7–8 added', moved)).toBe('Updated plan: steps 5–6 added');
    expect(nameStepsInChange('Updated plan: steps 3–6 added', moved)).toBe('Updated plan: steps 3–6 added');
    expect(nameStepsInChange('You moved step 6 up', moved)).toBe('You moved step 3 “Make icons follow the theme” up');
  });

  it('keeps a dialect label (WBS "1.2") as the number', () => {
    const wbs = { steps: [{ id: 4, title: 'Frame', label: '1.2' }] } as unknown as Parameters<typeof nameStepsInChange>[1];
    expect(nameStepsInChange('Updated plan: step 4 completed', wbs)).toBe('Updated plan: step 1.2 “Frame” completed');
  });

  it('a deleted step keeps only the title the change quotes; a long title is shortened; other lines stay', () => {
    expect(nameStepsInChange('You deleted step 9 "Old idea"', plan)).toBe('You deleted step "Old idea"');
    const named = nameStepsInChange('Updated plan: step 6 added', plan);
    expect(named).toMatch(/^Updated plan: step 3 “Make icons follow the theme colour and much more.*…” added$/);
    expect(named.length).toBeLessThan(100);
    expect(nameStepsInChange('Updated plan: step 9 deleted', plan)).toBe('Updated plan: step 9 deleted');
    expect(nameStepsInChange('Updated plan: steps 4–6 added', plan)).toBe('Updated plan: steps 4–6 added');
    expect(nameStepsInChange('Created plan: 3 steps', plan)).toBe('Created plan: 3 steps');
    expect(nameStepsInChange('Updated plan: step 12 started', plan)).toBe('Updated plan: step 12 started');
  });
});
