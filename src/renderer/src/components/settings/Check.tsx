/** A checkbox setting with its label and an optional hint under it. */
export function Check(props: { id: string; label: string; checked: boolean; onChange(value: boolean): void; hint?: string }) {
  return (
    <div className="field field--check">
      <input id={props.id} type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined} />
      <label htmlFor={props.id}>{props.label}</label>
      {props.hint && <p id={`${props.id}-hint`} className="hint">{props.hint}</p>}
    </div>
  );
}
