import { useEffect, useState } from 'preact/hooks';

/** The colour scheme: the system's (`prefers-color-scheme`) unless the reader chose one on this browser. */
export type Theme = 'light' | 'dark';
const KEY = 'addon-pair.theme';
const media = () => matchMedia('(prefers-color-scheme: dark)');

function stored(): Theme | undefined {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : undefined;
  } catch {
    return undefined;
  }
}

const systemTheme = (): Theme => (media().matches ? 'dark' : 'light');

/** Puts the theme on the root element (`data-theme`, which styles.css keys on); called before the first render. */
export function applyTheme(theme: Theme = stored() ?? systemTheme()): Theme {
  document.documentElement.dataset.theme = theme;
  return theme;
}

/** The toggle in the top bar; without a stored choice the theme follows the system while the page is open. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(() => (document.documentElement.dataset.theme as Theme | undefined) ?? applyTheme());
  useEffect(() => {
    const follow = () => stored() === undefined && setTheme(applyTheme(systemTheme()));
    const m = media();
    m.addEventListener('change', follow);
    return () => m.removeEventListener('change', follow);
  }, []);
  const toggle = () => {
    const next: Theme = theme === 'dark' ? 'light' : 'dark';
    try {
      localStorage.setItem(KEY, next);
    } catch {
      /* private mode: the choice lasts for this page only */
    }
    setTheme(applyTheme(next));
  };
  return (
    <button type="button" data-testid="theme" aria-pressed={theme === 'dark'} onClick={toggle} title="Switch between the light and the dark theme">
      {theme === 'dark' ? 'Light theme' : 'Dark theme'}
    </button>
  );
}
