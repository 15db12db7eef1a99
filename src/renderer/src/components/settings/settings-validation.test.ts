import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SettingsPatch } from '../../../../shared/settings';
import { fieldOfRefusal, limitsText, NUMBER_FIELDS, numberFieldError, numberFieldErrors } from './settings-validation';

describe('settings validation', () => {
  it('takes the number limits from the settings schema', () => {
    expect(NUMBER_FIELDS.maxRetries).toMatchObject({ min: 0, max: 10, step: 1 });
    expect(NUMBER_FIELDS.retryDelayMs).toMatchObject({ min: 0, max: 60_000 });
    expect(limitsText(NUMBER_FIELDS.retryDelayMs)).toBe('From 0 to 60,000 ms.');
    expect(NUMBER_FIELDS.maxModelTurns).toMatchObject({ label: 'Max model turns', min: 1, max: 500, step: 1 });
  });

  it('says in words what is wrong', () => {
    const retries = NUMBER_FIELDS.maxRetries;
    expect(numberFieldError(retries, '-5')).toBe("Max retries can't be less than 0: enter a number from 0 to 10.");
    expect(numberFieldError(retries, '11')).toBe("Max retries can't be more than 10: enter a number from 0 to 10.");
    expect(numberFieldError(retries, '2.5')).toBe('Max retries must be a whole number from 0 to 10.');
    expect(numberFieldError(retries, '')).toBe('Max retries is needed: enter a whole number from 0 to 10.');
    expect(numberFieldError(retries, 'x')).toBe('Max retries must be a number from 0 to 10.');
    expect(numberFieldError(retries, ' 3 ')).toBeNull();
    expect(numberFieldErrors({ maxRetries: '3', retryDelayMs: '70000', thinkingBudgetTokens: '8000', maxModelTurns: '0', runsAtOnce: '4', goalChecks: '6', subAgentDepth: '4', subAgentsAtOnce: '8', webSearchMaxUses: '21' })).toEqual({
      retryDelayMs: "Retry delay can't be more than 60,000: enter a number from 0 to 60,000.",
      maxModelTurns: "Max model turns can't be less than 1: enter a number from 1 to 500.",
      goalChecks: "Goal checks can't be more than 5: enter a number from 0 to 5.",
      subAgentDepth: "Sub-agent depth can't be more than 3: enter a number from 1 to 3.",
      webSearchMaxUses: "Web searches per request can't be more than 20: enter a number from 1 to 20.",
    });
  });

  it('agrees with what main accepts, for every typed number', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -100, max: 100_000 }), fc.double({ min: -10, max: 20, noNaN: true })), (n) => {
        const text = String(n);
        const local = numberFieldErrors({ maxRetries: text, retryDelayMs: text, thinkingBudgetTokens: text, maxModelTurns: text, runsAtOnce: text, goalChecks: text, subAgentDepth: text, subAgentsAtOnce: text, webSearchMaxUses: text });
        expect(local.maxRetries === undefined).toBe(SettingsPatch.safeParse({ maxRetries: Number(text) }).success);
        expect(local.webSearchMaxUses === undefined).toBe(SettingsPatch.safeParse({ webSearchMaxUses: Number(text) }).success);
        expect(local.retryDelayMs === undefined).toBe(SettingsPatch.safeParse({ retryDelayMs: Number(text) }).success);
        expect(local.thinkingBudgetTokens === undefined).toBe(SettingsPatch.safeParse({ thinkingBudgetTokens: Number(text) }).success);
        expect(local.maxModelTurns === undefined).toBe(SettingsPatch.safeParse({ maxModelTurns: Number(text) }).success);
        expect(local.runsAtOnce === undefined).toBe(SettingsPatch.safeParse({ runsAtOnce: Number(text) }).success);
        expect(local.goalChecks === undefined).toBe(SettingsPatch.safeParse({ goalChecks: Number(text) }).success);
        expect(local.subAgentDepth === undefined).toBe(SettingsPatch.safeParse({ subAgentDepth: Number(text) }).success);
        expect(local.subAgentsAtOnce === undefined).toBe(SettingsPatch.safeParse({ subAgentsAtOnce: Number(text) }).success);
      }),
    );
  });

  it('finds the field a refusal from main names', () => {
    expect(fieldOfRefusal('patch.maxRetries: Too small: expected number to be >=0')).toBe('maxRetries');
    expect(fieldOfRefusal('patch.mcpServers.x: Invalid input')).toBe('mcpServers');
    expect(fieldOfRefusal('patch.maxModelTurns: Too big: expected number to be <=500')).toBe('maxModelTurns');
    expect(fieldOfRefusal('patch.subAgentsAtOnce: Too big: expected number to be <=8')).toBe('subAgentsAtOnce');
    expect(fieldOfRefusal('patch.model: Too big')).toBeNull();
    expect(fieldOfRefusal('The backend is busy')).toBeNull();
  });
});
