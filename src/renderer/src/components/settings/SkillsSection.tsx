import { useEffect, useState } from 'react';
import type { SkillsView } from '../../../../shared/skills';
import { useWaypoint } from '../../store/store-context';
import { Check } from './Check';

interface Props {
  id: string;
  /** The skills unchecked in this dialog so far (saved with its Save). */
  turnedOff: string[];
  onChange(turnedOff: string[]): void;
}

/**
 * Settings' "Skills": every skill found for the open chat's workspace and in the data folder,
 * each with "Use skill NAME" (on unless turned off), and the folders whose SKILL.md cannot be
 * used, with the reason. Read from main when the dialog opens.
 */
export function SkillsSection({ id, turnedOff, onChange }: Props) {
  const loadSkills = useWaypoint((s) => s.loadSkills);
  const [found, setFound] = useState<SkillsView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void loadSkills().then((loaded) => {
      if (!live) return;
      if (loaded.ok) setFound(loaded.value);
      else setProblem(`The skills could not be listed: ${loaded.message}`);
    });
    return () => {
      live = false;
    };
  }, [loadSkills]);
  const toggle = (name: string, on: boolean) => onChange(on ? turnedOff.filter((n) => n !== name) : [...turnedOff, name]);
  return (
    <fieldset className="field skills-section">
      <legend>Skills</legend>
      <p className="hint">
        Folders with a SKILL.md in the workspace's .claude/skills/ and .agents/skills/ and in the data folder's skills/. Claude sees each
        skill's name and description and loads the rest when it needs it.
      </p>
      {problem && <p className="field-error">{problem}</p>}
      {found === null && !problem && <p className="hint">Looking for skills…</p>}
      {found && found.skills.length === 0 && found.broken.length === 0 && <p className="hint">No skills found.</p>}
      {found?.skills.map((skill, i) => (
        <Check key={skill.name} id={`${id}-skill-${i}`} label={`Use skill ${skill.name}`} checked={!turnedOff.includes(skill.name)}
          onChange={(on) => toggle(skill.name, on)} hint={`${skill.description} (${skill.where})`} />
      ))}
      {found && found.broken.length > 0 && (
        <ul className="skills-broken" aria-label="Skills not used">
          {found.broken.map((b) => (
            <li key={b.where}>
              Not used: <code>{b.where}</code>: {b.problem}
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
