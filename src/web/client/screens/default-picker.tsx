import { useState } from 'preact/hooks';
import type { OptionRecord } from '../fieldeditor.ts';

/** Suggestions shown at once: enough to pick from, few enough for a list of thousands. */
const SUGGESTIONS = 20;

/**
 * The default options of a multi select, for lists of any length: the chosen ones as chips (each removed with
 * its own button), and a search box whose suggestions add an option to them, never replace them. Keyboard:
 * ↓ / ↑ through the suggestions, Enter adds, Escape closes them, Backspace in the empty box removes the last chip.
 */
export function DefaultPicker({ options, chosen, onChange }: { options: OptionRecord[]; chosen: string[]; onChange: (ids: string[]) => void }) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const byId = new Map(options.map((o) => [String(o.id), o]));
  const needle = text.trim().toLowerCase();
  const suggestions: OptionRecord[] = [];
  for (const o of options) {
    if (suggestions.length === SUGGESTIONS) break;
    if (!chosen.includes(String(o.id)) && o.optionvalue.toLowerCase().includes(needle)) suggestions.push(o);
  }
  const shown = open && suggestions.length > 0;
  const at = Math.min(active, Math.max(0, suggestions.length - 1));

  const add = (o: OptionRecord) => {
    onChange([...chosen, String(o.id)]);
    setText('');
    setActive(0);
    // Closed after each pick (typing or ↓ opens it again), so it never lies over the buttons below.
    setOpen(false);
  };
  const remove = (id: string) => onChange(chosen.filter((c) => c !== id));

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive(Math.min(at + 1, suggestions.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive(Math.max(at - 1, 0));
    } else if (e.key === 'Enter') {
      // Enter picks a suggestion; it never submits the form from here (saving is the Save button's).
      e.preventDefault();
      const pick = shown ? suggestions[at] : undefined;
      if (pick) add(pick);
    } else if (e.key === 'Escape' && shown) {
      e.preventDefault();
      setOpen(false);
    } else if (e.key === 'Backspace' && text === '' && chosen.length > 0) {
      remove(chosen[chosen.length - 1]!);
    }
  };

  return (
    <div class="picker">
      <span class="picker-label" id="default-picker-label">
        Default options ({chosen.length} chosen of {options.length})
      </span>
      {chosen.length > 0 && (
        <ul class="chips" aria-label="Chosen default options" data-testid="default-chips">
          {chosen.map((id) => (
            <li key={id} class="chip" data-option-id={id}>
              {byId.get(id)?.optionvalue ?? `option ${id}`}
              <button type="button" class="small icon" aria-label={`Remove ${byId.get(id)?.optionvalue ?? id} from the default`} onClick={() => remove(id)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        type="search"
        role="combobox"
        list={undefined}
        data-testid="default-picker"
        aria-labelledby="default-picker-label"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls="default-picker-list"
        aria-activedescendant={shown ? `default-picker-${suggestions[at]!.id}` : undefined}
        placeholder="Type to find an option to add"
        value={text}
        onInput={(e) => (setText(e.currentTarget.value), setOpen(true), setActive(0))}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {shown && (
        <ul class="suggestions" role="listbox" id="default-picker-list" aria-label="Options to add">
          {suggestions.map((o, i) => (
            <li
              key={o.id}
              id={`default-picker-${o.id}`}
              role="option"
              aria-selected={i === at}
              class={i === at ? 'active' : undefined}
              // mousedown, not click: the box keeps the focus, so the list stays open for the next pick.
              onMouseDown={(e) => (e.preventDefault(), add(o))}
            >
              {o.optionvalue}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
